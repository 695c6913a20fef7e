package skilllock_test

import (
	"fmt"
	"log"
	"testing/fstest"

	"github.com/skillcatalog/skillcatalog/skill/skilllock"
)

// A lock pins each skill to the digest of its content: here one skill on
// disk, digested from its directory, written as the lock file's bytes and
// read back. A host running against the lock serves the skill only while
// its directory still digests the same.
func Example() {
	dir := fstest.MapFS{
		"SKILL.md":           {Data: []byte("---\nname: pdf-forms\ndescription: Fill PDF forms.\n---\nUse the form tool.\n")},
		"scripts/fill.py":    {Data: []byte("print('fill')\n")},
		"references/form.md": {Data: []byte("# Fields\n")},
	}
	digest, err := skilllock.TreeDigest(dir)
	if err != nil {
		log.Fatal(err)
	}
	lock, err := skilllock.New([]skilllock.Entry{{Kind: skilllock.KindLocal, Name: "pdf-forms", Digest: digest}})
	if err != nil {
		log.Fatal(err)
	}
	read, err := skilllock.Parse(lock.Encode())
	if err != nil {
		log.Fatal(err)
	}
	got, ok := read.Lookup(skilllock.Key{Kind: skilllock.KindLocal, Name: "pdf-forms"})
	fmt.Println(ok, got.Digest == digest, skilllock.ValidDigest(got.Digest))

	dir["SKILL.md"].Data = []byte("---\nname: pdf-forms\ndescription: Fill PDF forms.\n---\nUse any tool.\n")
	changed, err := skilllock.TreeDigest(dir)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(changed == got.Digest)
	// Output:
	// true true true
	// false
}
