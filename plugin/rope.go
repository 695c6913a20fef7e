package plugin

// rope is a byte string held in immutable pieces that views share: a view
// built on its predecessor refers to the predecessor's bytes for every
// entry that did not change instead of copying them. Pieces are never
// written after they are added.
type rope struct {
	pieces [][]byte
	size   int
}

// maxRopePieces bounds how fragmented a rope may get before a view copies
// it into one piece; each change between two views adds at most two.
const maxRopePieces = 32

// add appends b as a piece; empty pieces are dropped. The piece is capped
// at its length, so that no append through it can reach bytes beyond.
func (r *rope) add(b []byte) {
	if len(b) > 0 {
		r.pieces = append(r.pieces, b[:len(b):len(b)])
		r.size += len(b)
	}
}

// addRange appends the bytes [from, to) of src, sharing its pieces.
func (r *rope) addRange(src *rope, from, to int) {
	off := 0
	for _, p := range src.pieces {
		start, end := off, off+len(p)
		off = end
		if end <= from {
			continue
		}
		if start >= to {
			return
		}
		r.add(p[max(from, start)-start : min(to, end)-start])
	}
}

// compacted returns r as at most one piece when it has grown too
// fragmented.
func (r rope) compacted() rope {
	if len(r.pieces) <= maxRopePieces {
		return r
	}
	one := make([]byte, 0, r.size)
	for _, p := range r.pieces {
		one = append(one, p...)
	}
	return rope{pieces: [][]byte{one}, size: len(one)}
}
