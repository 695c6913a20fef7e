package events

// LogEvent is one durable session event as the scanner sees it.
type LogEvent struct {
	// Seq orders events within a session; larger is newer.
	Seq uint64
	// Source is the event's source bytes (nil when it has none). The scanner reads it only
	// during Feed and never retains or modifies it.
	Source []byte
	// Visible reports whether the event is still part of the model's view (not hidden by
	// compaction).
	Visible bool
}

// Baseline is what a backward scan learned about earlier catalog publications.
type Baseline struct {
	// Found reports that a visible readable catalog was found; Seq and Catalog describe the
	// newest one.
	Found   bool
	Seq     uint64
	Catalog Catalog
	// EverPublished reports that some readable catalog, visible or hidden, exists among the
	// scanned events. It is true whenever Found is. Found false with EverPublished true means
	// compaction hid every catalog and the current one must be re-established.
	EverPublished bool
	// Activated are the skills the newest readable catalog, visible or hidden, names as
	// activated by the files the session touched (Catalog.Activated): a compaction hides
	// the catalog, never the activation.
	Activated []string
	// Shown are the skills that the visible relevant-skills messages newer than the newest
	// visible catalog (all visible ones, without a catalog) described, newest first, at most
	// MaxShown; Answered the ids of the user messages those messages answered, at most
	// MaxAnswered.
	Shown    []string
	Answered []string
	// Preloaded reports that a skill-preload record, visible or hidden, is among the scanned
	// events. It is reliable only while EverPublished is false (the scan then read every
	// event): a session whose log holds neither has not had its first step yet.
	Preloaded bool
}

// Over combines b, the result for a range of newer events, with older, the result for the
// events before that range. The newest visible catalog comes from b when b found one and from
// older otherwise; EverPublished holds if it holds for either. It is valid only while the
// visibility of the older events is unchanged.
func (b Baseline) Over(older Baseline) Baseline {
	if b.Found {
		return b
	}
	if b.EverPublished {
		older.Activated = b.Activated
	}
	older.EverPublished = older.EverPublished || b.EverPublished
	older.Preloaded = older.Preloaded || b.Preloaded
	older.Shown = newestFirst(b.Shown, older.Shown, MaxShown)
	older.Answered = newestFirst(b.Answered, older.Answered, MaxAnswered)
	return older
}

// newestFirst returns newer followed by older, cut to at most max.
func newestFirst(newer, older []string, max int) []string {
	if len(newer) == 0 {
		return older
	}
	out := make([]string, 0, min(len(newer)+len(older), max))
	out = append(out, newer[:min(len(newer), max)]...)
	return append(out, older[:min(len(older), max-len(out))]...)
}

// Scanner derives a Baseline from events fed newest first. The zero value is ready to use
// and parses with ParseCatalog.
type Scanner struct {
	parse func([]byte) (Catalog, bool)
	b     Baseline
}

// NewScanner returns a scanner that reads catalog records with parse, which must agree with
// ParseCatalog (for example a cache keyed by source content); nil means ParseCatalog. parse is
// called only for sources that contain the catalog kind literally, and only when the result
// can still change the baseline.
func NewScanner(parse func([]byte) (Catalog, bool)) *Scanner {
	return &Scanner{parse: parse}
}

// Feed considers the next older event and reports whether the scan is done: the newest
// visible readable catalog has been found, and no older event can change the baseline.
// Events fed after that are ignored.
func (s *Scanner) Feed(ev LogEvent) (done bool) {
	if s.b.Found {
		return true
	}
	// Once a catalog is known to have been published, hidden events cannot change anything,
	// so scans across long compacted histories skip them without looking at their sources.
	if !ev.Visible && s.b.EverPublished {
		return false
	}
	if !mayBeCatalog(ev.Source) {
		if !s.b.Preloaded && isPreload(ev.Source) {
			s.b.Preloaded = true
		}
		if ev.Visible {
			if r, ok := ParseRelevant(ev.Source); ok {
				s.b.noteRelevant(r)
			}
		}
		return false
	}
	parse := s.parse
	if parse == nil {
		parse = ParseCatalog
	}
	c, ok := parse(ev.Source)
	return s.FeedParsed(ev.Seq, ev.Visible, c, ok)
}

// FeedParsed is Feed for an event whose source the caller has already
// parsed (it knew the source by its digest): catalog is what the source
// holds when isCatalog is true.
func (s *Scanner) FeedParsed(seq uint64, visible bool, catalog Catalog, isCatalog bool) (done bool) {
	if s.b.Found {
		return true
	}
	if !isCatalog || !visible && s.b.EverPublished {
		return false
	}
	if !s.b.EverPublished {
		s.b.Activated = catalog.Activated // the newest record's
	}
	s.b.EverPublished = true
	if !visible {
		return false
	}
	s.b.Found, s.b.Seq, s.b.Catalog = true, seq, catalog
	return true
}

// FeedRelevant is Feed for a relevant-skills record whose source the caller
// has already parsed.
func (s *Scanner) FeedRelevant(visible bool, r Relevant) (done bool) {
	if s.b.Found {
		return true
	}
	if visible {
		s.b.noteRelevant(r)
	}
	return false
}

// Baseline returns the result for the events fed so far.
func (s *Scanner) Baseline() Baseline {
	return s.b
}
