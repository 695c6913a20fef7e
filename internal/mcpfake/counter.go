package mcpfake

import "sync"

// readCounter counts the reads a fake server handled, per URI: both fakes
// embed it, so tests ask either the same way.
type readCounter struct {
	mu    sync.Mutex
	reads map[string]int
}

// count records one read of uri.
func (c *readCounter) count(uri string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.reads == nil {
		c.reads = make(map[string]int)
	}
	c.reads[uri]++
}

// Reads returns how many reads of uri the server handled, failed ones
// included.
func (c *readCounter) Reads(uri string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads[uri]
}

// TotalReads returns how many reads the server handled.
func (c *readCounter) TotalReads() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, r := range c.reads {
		n += r
	}
	return n
}
