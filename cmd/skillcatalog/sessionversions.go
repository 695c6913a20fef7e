package main

import (
	"fmt"
	"io"
	"os"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/skill"
)

// sessionVersions is what explain -session prints: every catalog the
// session's model was shown and every skill it read, in log order, each
// with the version (content digest) recorded.
type sessionVersions struct {
	Session string          `json:"session"`
	Records []sessionRecord `json:"records"`
}

// sessionRecord is one catalog record or load record of a session.
type sessionRecord struct {
	Seq uint64 `json:"seq"`
	// Visible is false when a compaction hid the message.
	Visible bool `json:"visible"`
	// Kind is "skill-catalog", or a load record's kind (skill-load,
	// skill-invocation, skill-preload, skill-reattach).
	Kind string `json:"kind"`
	// Update marks a catalog that replaced an earlier one.
	Update bool           `json:"update,omitempty"`
	Skills []sessionSkill `json:"skills"`
}

// sessionSkill is one skill a record names.
type sessionSkill struct {
	Name       string `json:"name"`
	Origin     string `json:"origin,omitempty"`
	OriginKind string `json:"originKind,omitempty"`
	// ContentDigest is the version's content digest, "" when the record
	// names none (no digest computed, or a record of an older version).
	ContentDigest string `json:"contentDigest,omitempty"`
	// Instructions is a load record's digest of the instructions the
	// message carried (events.ContentDigest).
	Instructions string `json:"instructions,omitempty"`
	// State is a reattached skill's state (changed, gone, ...).
	State string `json:"state,omitempty"`
}

// readSessionVersions reads the session log file at path.
func readSessionVersions(path string) (sessionVersions, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return sessionVersions{}, fmt.Errorf("-session: %w", err)
	}
	out := sessionVersions{Session: path, Records: []sessionRecord{}}
	for _, ev := range sessionlog.ParseFileLog(data) {
		if c, ok := events.ParseCatalog(ev.Source); ok {
			rec := sessionRecord{Seq: ev.Seq, Visible: ev.Visible, Kind: events.SourceKind, Update: c.Update, Skills: []sessionSkill{}}
			for _, e := range c.Entries {
				s := sessionSkill{Name: e.Name, Origin: e.Origin, ContentDigest: e.ContentDigest}
				if e.Origin != "" {
					s.OriginKind = skill.OriginKind(e.OriginKind).String()
				}
				rec.Skills = append(rec.Skills, s)
			}
			out.Records = append(out.Records, rec)
			continue
		}
		if kind, loaded, ok := events.ParseLoads(ev.Source); ok {
			rec := sessionRecord{Seq: ev.Seq, Visible: ev.Visible, Kind: kind, Skills: []sessionSkill{}}
			for _, l := range loaded {
				rec.Skills = append(rec.Skills, sessionSkill{Name: l.Name, ContentDigest: l.ContentDigest, Instructions: l.Digest, State: l.State})
			}
			out.Records = append(out.Records, rec)
		}
	}
	return out, nil
}

// printSessionVersions prints sv for a person.
func printSessionVersions(w io.Writer, sv sessionVersions) {
	fmt.Fprintf(w, "Session %s: %d records name skills\n", skill.QuoteUnsafe(sv.Session), len(sv.Records))
	for _, r := range sv.Records {
		what := r.Kind
		if r.Kind == events.SourceKind {
			what = "catalog shown"
			if r.Update {
				what = "catalog shown (replacement)"
			}
		}
		hidden := ""
		if !r.Visible {
			hidden = " (hidden by a compaction)"
		}
		fmt.Fprintf(w, "\nseq %d: %s%s\n", r.Seq, what, hidden)
		if len(r.Skills) == 0 {
			fmt.Fprintln(w, "  no skills")
		}
		for _, s := range r.Skills {
			version := s.ContentDigest
			if version == "" {
				version = "version not recorded"
			}
			fmt.Fprintf(w, "  %s", skill.QuoteUnsafe(s.Name))
			if s.Origin != "" {
				fmt.Fprintf(w, "  %s %s", s.OriginKind, skill.QuoteUnsafe(s.Origin))
			}
			fmt.Fprintf(w, "  %s", version)
			if s.State != "" {
				fmt.Fprintf(w, "  %s", s.State)
			}
			fmt.Fprintln(w)
		}
	}
}
