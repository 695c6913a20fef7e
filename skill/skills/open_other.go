//go:build !unix

package skills

import "os"

// openInRoot opens name below root for reading.
func openInRoot(root *os.Root, name string) (*os.File, error) {
	return root.Open(name)
}
