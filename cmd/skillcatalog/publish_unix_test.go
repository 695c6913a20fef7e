//go:build unix

package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Under a umask of 077, the command's directories are 0755 as its files
// are 0644, every one it creates (OUT itself among them): a site is meant
// to be served, and a web server running as another user reads it.
func TestPublishDirectoryModesIgnoreTheUmask(t *testing.T) {
	bin := buildCommand(t)
	out := filepath.Join(t.TempDir(), "site", "public")
	cmd := exec.Command("sh", "-c", `umask 077 && exec "$0" publish "$1" "$2"`, bin, webFixture, out)
	if got, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("publish under umask 077: %v\n%s", err, got)
	}
	for _, dir := range []string{filepath.Dir(out), out} {
		if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: %v, %v; want mode 0755", dir, fi.Mode(), err)
		}
	}
	err := filepath.WalkDir(filepath.Join(out, ".well-known"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o644)
		if d.IsDir() || filepath.Base(p) == "deploy.sh" {
			want = 0o755
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
