package discovery_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
	"github.com/skillcatalog/skillcatalog/plugin/discovery"
)

// New wraps the engine so that a mount configured with a discovery has its
// skills found by the plugin itself, here one skill directory: the host
// answers only for its session log (contracttest's host here), which is the
// short path of proto/HOSTS.md for hosts in other languages.
// pluginserver.Serve wraps the engine so.
func ExampleNew() {
	root, err := os.MkdirTemp("", "skills")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	if err := os.Mkdir(filepath.Join(root, "pdf-forms"), 0o755); err != nil {
		log.Fatal(err)
	}
	file := "---\nname: pdf-forms\ndescription: Fill in PDF forms.\n---\nRead the form's fields first.\n"
	if err := os.WriteFile(filepath.Join(root, "pdf-forms", "SKILL.md"), []byte(file), 0o644); err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	service := discovery.New(plugin.New(nil), nil)
	defer service.Close()
	host := contracttest.NewHost()
	d := contract.Discovery{SkillRoots: []string{root}, HomeDir: root}
	mount, err := service.Configure(ctx, host, contract.ConfigureRequest{Discovery: d.JSON()})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("discovers skills:", mount.DiscoversSkills)
	if err := service.BindTools(ctx, mount.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: "skill-1"}}); err != nil {
		log.Fatal(err)
	}
	res, err := service.ExecuteSkillTool(ctx, contract.ToolCall{MountID: mount.MountID, SessionID: "session-1", Cwd: root, Arguments: json.RawMessage(`{"name": "pdf-forms"}`)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Value.Content)
	fmt.Println("host snapshot callbacks:", host.Calls(contracttest.CallSnapshot))
	// Output:
	// discovers skills: true
	// Read the form's fields first.
	// host snapshot callbacks: 0
}

// Parse checks a discovery configuration as a host in another language
// writes it, naming the option and its bound when one is wrong.
func ExampleParse() {
	d, err := discovery.Parse(`{"skillRoots": ["/srv/skills"], "presets": ["claude-code"]}`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.SkillRoots, d.Presets)
	_, err = discovery.Parse(`{"skillRoots": ["skills"]}`)
	fmt.Println(err)
	// Output:
	// [/srv/skills] [claude-code]
	// discovery option skillRoots[0] must be an absolute path, got "skills"
}
