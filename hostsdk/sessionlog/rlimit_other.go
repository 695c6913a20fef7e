//go:build !unix

package sessionlog

// defaultMaxFiles is the default descriptor budget of a FileStore where the
// descriptor limit cannot be read.
func defaultMaxFiles() int { return fallbackDefaultFiles }
