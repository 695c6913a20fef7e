package wire

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/descriptorpb"

	// go-plugin registers its own descriptors of the services shipped in
	// proto/goplugin; the protocol's code links it anyway.
	_ "github.com/hashicorp/go-plugin"

	"github.com/skillcatalog/skillcatalog/internal/testneeds"
)

func TestMain(m *testing.M) {
	os.Exit(testneeds.Report(m.Run()))
}

// TestShippedGoPluginProtoMatchesGoPlugin holds proto/goplugin, the
// definitions of go-plugin's broker, controller and stdio services shipped
// for hosts in other languages, to the descriptors go-plugin itself is
// compiled with: every message, field, enum and method the same, by name,
// number and type. The shipped files are compiled with buf, which
// proto/generate.sh builds.
func TestShippedGoPluginProtoMatchesGoPlugin(t *testing.T) {
	buf := bufBinary(t)
	out := filepath.Join(t.TempDir(), "goplugin.binpb")
	cmd := exec.Command(buf, "build", "proto/goplugin", "--as-file-descriptor-set", "-o", out)
	cmd.Dir = filepath.Join("..", "..")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("buf build proto/goplugin: %v\n%s", err, msg)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(raw, &set); err != nil {
		t.Fatalf("decode the descriptor set: %v", err)
	}
	seen := 0
	for _, file := range set.File {
		if file.GetPackage() != "plugin" {
			continue
		}
		for _, msg := range file.MessageType {
			compareDescriptor(t, "plugin."+msg.GetName(), msg)
			seen++
		}
		for _, svc := range file.Service {
			compareDescriptor(t, "plugin."+svc.GetName(), svc)
			seen++
		}
	}
	// ConnInfo, Empty, StdioData; GRPCBroker, GRPCController, GRPCStdio.
	if seen != 6 {
		t.Errorf("proto/goplugin defines %d messages and services, want the 6 go-plugin has", seen)
	}
}

// compareDescriptor compares a shipped message or service with go-plugin's
// of the same full name.
func compareDescriptor(t *testing.T, name string, shipped proto.Message) {
	t.Helper()
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(name))
	if err != nil {
		t.Errorf("go-plugin has no %s: %v", name, err)
		return
	}
	var want proto.Message
	switch d := d.(type) {
	case protoreflect.MessageDescriptor:
		want = protodesc.ToDescriptorProto(d)
	case protoreflect.ServiceDescriptor:
		want = protodesc.ToServiceDescriptorProto(d)
	default:
		t.Errorf("%s is a %T in go-plugin", name, d)
		return
	}
	// JSON names are derived, and written out by some compilers only.
	ignoreJSONName := protocmp.IgnoreFields(&descriptorpb.FieldDescriptorProto{}, "json_name")
	if diff := cmp.Diff(want, shipped, protocmp.Transform(), ignoreJSONName); diff != "" {
		t.Errorf("proto/goplugin's %s differs from go-plugin's (-go-plugin +shipped):\n%s", name, diff)
	}
}

// bufBinary finds the buf that proto/generate.sh builds; without it the
// test is skipped, except under CI, where .ci/run builds it first.
func bufBinary(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SKILLCATALOG_TOOLS_BIN")
	if dir == "" {
		dir = filepath.Join("..", "..", ".cache", "prototools")
	}
	path, err := filepath.Abs(filepath.Join(dir, "buf"))
	if err == nil {
		if _, err = os.Stat(path); err == nil {
			return path
		}
	}
	testneeds.Skip(t, "buf, which `bash proto/generate.sh --check` builds (as .ci/run does)", err)
	return ""
}
