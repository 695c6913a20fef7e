package plugin

import (
	"bytes"
	"testing"
)

func (r *rope) bytes() []byte { return bytes.Join(r.pieces, nil) }

// FuzzRopeRange: a range of a rope, taken piece by piece, is that range of
// its bytes, and compaction keeps them.
func FuzzRopeRange(f *testing.F) {
	f.Add([]byte("hello, world"), uint8(3), uint8(2), uint8(9))
	f.Fuzz(func(t *testing.T, data []byte, cut, from, to uint8) {
		var src rope
		step := int(cut%7) + 1
		for i := 0; i < len(data); i += step {
			src.add(data[i:min(i+step, len(data))])
		}
		if !bytes.Equal(src.bytes(), data) || src.size != len(data) {
			t.Fatalf("rope of %q holds %q (size %d)", data, src.bytes(), src.size)
		}
		a, b := int(from), int(to)
		if a > len(data) {
			a = len(data)
		}
		if b > len(data) {
			b = len(data)
		}
		if a > b {
			a, b = b, a
		}
		var r rope
		r.add([]byte("x"))
		r.addRange(&src, a, b)
		want := append([]byte("x"), data[a:b]...)
		if !bytes.Equal(r.bytes(), want) || r.size != len(want) {
			t.Fatalf("range [%d,%d) of %q = %q, want %q", a, b, data, r.bytes(), want)
		}
		for _, p := range r.pieces {
			if len(p) == 0 {
				t.Fatal("empty piece")
			}
		}
		c := src.compacted()
		if !bytes.Equal(c.bytes(), data) || len(c.pieces) > maxRopePieces {
			t.Fatalf("compacted rope holds %q in %d pieces", c.bytes(), len(c.pieces))
		}
	})
}
