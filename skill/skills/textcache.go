package skills

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/skillcatalog/skillcatalog/internal/fileid"
	"github.com/skillcatalog/skillcatalog/skill"
)

// textVerdictEntries bounds the remembered verdicts: a few hundred bytes
// each at most, for the files models page through.
const textVerdictEntries = 1024

// textVerdicts remembers, per version of a file (fileid.ID: device, inode,
// size, modification and change time), whether the whole file is text, so
// that later windows of a directory skill's file read only their bytes. A
// file that changes is another version and is judged again.
type textVerdicts struct {
	mu  sync.Mutex
	lru *simplelru.LRU[fileid.ID, bool]
}

func newTextVerdicts(capacity int) *textVerdicts {
	lru, err := simplelru.NewLRU[fileid.ID, bool](capacity, nil)
	if err != nil {
		panic(fmt.Sprintf("skills: text verdict cache of %d entries: %v", capacity, err))
	}
	return &textVerdicts{lru: lru}
}

func (t *textVerdicts) get(id fileid.ID) (text, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lru.Get(id)
}

func (t *textVerdicts) put(id fileid.ID, text bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lru.Add(id, text)
}

// readWindow reads a window of the regular file at rel inside root (see
// ReadResourceWindow): only the window when the file's version has a
// verdict, else the whole file, which it judges and remembers.
func (t *textVerdicts) readWindow(root *os.Root, rel string, offset int64, max int) (ResourceWindow, error) {
	f, fi, err := openBelow(root, rel)
	if err != nil {
		return ResourceWindow{}, err
	}
	defer f.Close()
	if id, ok := fileid.Of(fi); ok {
		if text, known := t.get(id); known {
			return readAt(f, fi.Size(), text, offset, max)
		}
	}
	data, id, err := readWhole(f, fi)
	if err != nil {
		return ResourceWindow{}, err
	}
	text := skill.IsText(data)
	if id != (fileid.ID{}) {
		t.put(id, text)
	}
	return windowOf(data, text, offset, max), nil
}

// readAt reads a window of an open file of the given size whose verdict is
// known.
func readAt(f io.ReaderAt, size int64, text bool, offset int64, max int) (ResourceWindow, error) {
	w := ResourceWindow{Total: size, Binary: !text}
	if w.Binary || offset < 0 || offset >= size {
		return w, nil
	}
	n := size - offset
	if max >= 0 && int64(max) < n {
		n = int64(max)
	}
	buf := make([]byte, n)
	got, err := f.ReadAt(buf, offset)
	if err != nil && err != io.EOF {
		return ResourceWindow{}, fmt.Errorf("read resource: %w", err)
	}
	w.Data = buf[:got]
	return w, nil
}
