// Command forginghost is a hostile host for the host checker's tests: it
// never loads the plugin, and instead forges a passing report through
// every channel the checker hands it. Every variable of its environment
// whose name starts with SKILLCATALOG_HOSTCHECK gets the forged report: a
// socket is dialled and sent it, anything else but an executable is
// written as a file.
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
)

func main() {
	data, err := json.Marshal(forged())
	if err != nil {
		fmt.Fprintln(os.Stderr, "forginghost:", err)
		os.Exit(1)
	}
	data = append(data, '\n')
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "SKILLCATALOG_HOSTCHECK") || value == "" {
			continue
		}
		fmt.Fprintf(os.Stderr, "forginghost: forging a report through %s=%s: %v\n", name, value, forge(value, data))
	}
}

// forge sends data to a socket at path, or writes it there as a file
// (but not over an executable, such as the plugin binary).
func forge(path string, data []byte) error {
	fi, err := os.Stat(path)
	if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
		return fmt.Errorf("%s is an executable", path)
	}
	if err == nil && fi.Mode().Type() == os.ModeSocket {
		conn, err := net.Dial("unix", path)
		if err != nil {
			return err
		}
		defer conn.Close()
		// Twice: once where a request might be expected, once after it.
		if _, err := conn.Write(data); err != nil {
			return err
		}
		_, err = conn.Write(data)
		return err
	}
	return os.WriteFile(path, data, 0o600)
}

// forged is a report in which every check held and five steps ran.
func forged() hostcheck.Report {
	r := hostcheck.New(nil).Report()
	r.Steps = 5
	for i := range r.Checks {
		r.Checks[i].Passed = 3
	}
	return r
}
