// Package pinned accounts for what a provider of remote skills keeps per
// session: the listing each session's catalog came from, pinned so that a
// skill loads as it was listed, and the session's own bookkeeping. It
// bounds their bytes: a listing that several sessions pin counts once, the
// provider's newest listing (which it keeps anyway) not at all, and past
// the bound the least recently used sessions are evicted, their state
// dropped by the provider, as if they had ended.
package pinned

import (
	"container/list"
	"unsafe"
)

// Sessions is the accounting. It holds no listing, only identities (K)
// and costs; the provider keeps the listings and drops a session's state
// when Sessions evicts it. It is not safe for concurrent use: the provider
// calls it under its own lock, and the evict function runs under that
// lock too.
type Sessions[K comparable] struct {
	maxBytes int
	bytes    int
	order    *list.List // of *session; front = most recently used
	byID     map[string]*list.Element
	shared   map[K]*share
	current  K
	evict    func(session string)
}

type session[K comparable] struct {
	id     string
	key    K
	pinned bool
	own    int // the session's own bytes, besides its listing
}

type share struct {
	refs int
	cost int
}

// sessionOverhead is what a session costs besides its id and what the
// provider adds (Grow): the accounting's element and map slot, and the
// provider's own entry for it, estimated.
const sessionOverhead = 256 + int(unsafe.Sizeof(list.Element{}))

// New returns an empty account bounded by maxBytes, which calls evict for
// every session it evicts.
func New[K comparable](maxBytes int, evict func(session string)) *Sessions[K] {
	return &Sessions[K]{
		maxBytes: maxBytes,
		order:    list.New(),
		byID:     make(map[string]*list.Element),
		shared:   make(map[K]*share),
		evict:    evict,
	}
}

// Touch marks session as the most recently used, adding it, with nothing
// pinned, if it is not accounted for yet; then evicts the least recently
// used sessions other than it until the bound holds.
func (s *Sessions[K]) Touch(id string) {
	s.shrink(s.touch(id))
}

func (s *Sessions[K]) touch(id string) *session[K] {
	if el, ok := s.byID[id]; ok {
		s.order.MoveToFront(el)
		return el.Value.(*session[K])
	}
	ss := &session[K]{id: id, own: len(id) + sessionOverhead}
	s.byID[id] = s.order.PushFront(ss)
	s.bytes += ss.own
	return ss
}

// Pin records that session pins the listing key, which costs cost bytes
// (counted once while any session pins it, and not while it is the
// current one), in place of what it pinned before; the session is then the
// most recently used. Sessions evicted to keep the bound never include
// this one.
func (s *Sessions[K]) Pin(id string, key K, cost int) {
	ss := s.touch(id)
	if ss.pinned && ss.key == key {
		s.shrink(ss)
		return
	}
	s.unpin(ss)
	ss.key, ss.pinned = key, true
	sh := s.shared[key]
	if sh == nil {
		sh = &share{cost: cost}
		s.shared[key] = sh
		if key != s.current {
			s.bytes += cost
		}
	}
	sh.refs++
	s.shrink(ss)
}

// Grow adds n bytes to what session costs of its own (n may be negative,
// to give back what it no longer holds).
func (s *Sessions[K]) Grow(id string, n int) {
	ss := s.touch(id)
	ss.own += n
	s.bytes += n
	s.shrink(ss)
}

// unpin releases what ss pins.
func (s *Sessions[K]) unpin(ss *session[K]) {
	if !ss.pinned {
		return
	}
	sh := s.shared[ss.key]
	sh.refs--
	if sh.refs == 0 {
		delete(s.shared, ss.key)
		if ss.key != s.current {
			s.bytes -= sh.cost
		}
	}
	var zero K
	ss.key, ss.pinned = zero, false
}

// Drop forgets session (it ended), without calling evict.
func (s *Sessions[K]) Drop(id string) {
	el, ok := s.byID[id]
	if !ok {
		return
	}
	s.remove(el)
}

func (s *Sessions[K]) remove(el *list.Element) {
	ss := el.Value.(*session[K])
	s.unpin(ss)
	s.bytes -= ss.own
	s.order.Remove(el)
	delete(s.byID, ss.id)
}

// SetCurrent makes key the provider's newest listing, which costs nothing
// here (the provider keeps it whether sessions pin it or not); the listing
// that was current before counts again while sessions pin it, and sessions
// are evicted until the bound holds.
func (s *Sessions[K]) SetCurrent(key K) {
	if key == s.current {
		return
	}
	if sh := s.shared[s.current]; sh != nil {
		s.bytes += sh.cost
	}
	if sh := s.shared[key]; sh != nil {
		s.bytes -= sh.cost
	}
	s.current = key
	s.shrink(nil)
}

// shrink evicts the least recently used sessions other than keep (nil:
// any) until the bound holds.
func (s *Sessions[K]) shrink(keep *session[K]) {
	for s.bytes > s.maxBytes {
		el := s.order.Back()
		if el != nil && el.Value.(*session[K]) == keep {
			el = el.Prev()
		}
		if el == nil {
			return
		}
		id := el.Value.(*session[K]).id
		s.remove(el)
		s.evict(id)
	}
}

// Reset forgets every session without calling evict.
func (s *Sessions[K]) Reset() {
	s.order.Init()
	clear(s.byID)
	clear(s.shared)
	s.bytes = 0
}

// Bytes returns what the account holds: every session's own bytes and
// every pinned listing but the current one.
func (s *Sessions[K]) Bytes() int { return s.bytes }

// Len returns how many sessions are accounted for.
func (s *Sessions[K]) Len() int { return s.order.Len() }
