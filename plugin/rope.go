package plugin

import "slices"

// rope is a byte string held in immutable pieces that views share: a view
// built on its predecessor refers to the predecessor's bytes for every
// entry that did not change instead of copying them. Pieces are never
// written after they are added.
//
// Every piece lies in a chunk, one allocation, and keeps all of it alive
// however little of it the piece covers; a rope records the chunks so that
// what it retains can be counted, not just what it holds.
type rope struct {
	pieces [][]byte
	chunks []*chunk // chunks[i] is the allocation pieces[i] lies in
	size   int
}

// chunk stands for one allocation that pieces are cut from.
type chunk struct {
	size int // capacity of the allocation, in bytes
}

// Compaction bounds. Each change between two views adds at most two pieces
// to a rope; a rope whose chunks are mostly bytes it does not use (a few
// entries shared out of an old view's buffer) is copied so that it stops
// pinning them once that view is gone.
const (
	maxRopePieces = 32
	maxRopeSlack  = 2 // retained bytes may be at most this many times the size
)

// add appends b, which lies in c, as a piece; empty pieces are dropped. The
// piece is capped at its length, so that no append through it can reach
// bytes beyond.
func (r *rope) add(b []byte, c *chunk) {
	if len(b) > 0 {
		r.pieces = append(r.pieces, b[:len(b):len(b)])
		r.chunks = append(r.chunks, c)
		r.size += len(b)
	}
}

// addRange appends the bytes [from, to) of src, sharing its pieces.
func (r *rope) addRange(src *rope, from, to int) {
	off := 0
	for i, p := range src.pieces {
		start, end := off, off+len(p)
		off = end
		if end <= from {
			continue
		}
		if start >= to {
			return
		}
		r.add(p[max(from, start)-start:min(to, end)-start], src.chunks[i])
	}
}

// retained returns the bytes of the distinct chunks r's pieces lie in:
// what r keeps alive, counting chunks it shares with other ropes too.
func (r *rope) retained() int {
	n := 0
	for i, c := range r.chunks {
		if !slices.Contains(r.chunks[:i], c) {
			n += c.size
		}
	}
	return n
}

// compacted returns r as one piece in a chunk of its own when it has grown
// too fragmented or retains too much more than it holds.
func (r rope) compacted() rope {
	if len(r.pieces) <= maxRopePieces && r.retained() <= maxRopeSlack*r.size {
		return r
	}
	one := make([]byte, 0, r.size)
	for _, p := range r.pieces {
		one = append(one, p...)
	}
	var out rope
	out.add(one, &chunk{size: cap(one)})
	return out
}

// buffer is where a view builder writes the new entries of one rope, and
// the chunk of the allocation it currently writes in.
type buffer struct {
	b     []byte
	chunk *chunk
	room  int // cap(b) when last sealed; append moves b to a new allocation only by growing it
}

// sealInto adds what was written since the last seal to r as a piece, and
// goes on writing after it.
func (w *buffer) sealInto(r *rope) {
	if len(w.b) == 0 {
		return
	}
	if w.chunk == nil || cap(w.b) != w.room {
		// b starts its allocation: it was empty when append last had to
		// grow it.
		w.chunk = &chunk{size: cap(w.b)}
	}
	r.add(w.b, w.chunk)
	w.b = w.b[len(w.b):]
	w.room = cap(w.b)
}
