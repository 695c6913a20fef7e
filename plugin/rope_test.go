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
		whole := &chunk{size: cap(data)}
		for i := 0; i < len(data); i += step {
			src.add(data[i:min(i+step, len(data))], whole)
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
		x := []byte("x")
		r.add(x, &chunk{size: cap(x)})
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
		if len(data) > 0 && src.retained() != cap(data) {
			t.Fatalf("rope of one chunk of %d bytes retains %d", cap(data), src.retained())
		}
		if want := cap(x) + min(b-a, 1)*cap(data); r.retained() != want {
			t.Fatalf("range [%d,%d) retains %d bytes, want its two chunks' %d", a, b, r.retained(), want)
		}
		for _, c := range []rope{src.compacted(), r.compacted()} {
			if len(c.chunks) > 1 && (len(c.pieces) > maxRopePieces || c.retained() > maxRopeSlack*c.size) {
				t.Fatalf("compacted rope holds %d bytes in %d pieces retaining %d", c.size, len(c.pieces), c.retained())
			}
		}
		if c := src.compacted(); !bytes.Equal(c.bytes(), data) {
			t.Fatalf("compacted rope holds %q", c.bytes())
		}
	})
}
