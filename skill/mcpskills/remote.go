package mcpskills

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// listing is a catalog and when it was read: readAt, and the provider's
// index generation (change notifications) before the walk began.
type listing struct {
	cat    *catalog
	readAt time.Time
	gen    uint64
}

// heldEntry is the entry a session loaded a skill from: every read of the
// skill's files is verified against it.
type heldEntry struct {
	// entry is nil when a refresh found that the server no longer serves
	// the skill, or serves no valid entry for it.
	entry *remoteEntry
	// at is when the entry was obtained: its listing's readAt, or the time
	// of the skills/get that refreshed it.
	at time.Time
	// fmChecked records that the SKILL.md whose digest entry lists was
	// compared with entry's frontmatter and agreed, so that a reload of
	// the same verified bytes is not parsed again.
	fmChecked bool
	// cost is what holding it costs the session (Options.PinnedMaxBytes).
	cost int
}

// heldOverhead is what a held entry costs besides the entry: its struct
// and its place in the session's map.
const heldOverhead = 96

// holdLocked holds h for the session as the entry of the skill at uri, in
// place of what it held there, and accounts for it.
func (p *Provider) holdLocked(sessionID string, v *view, uri string, h *heldEntry) {
	h.cost = heldOverhead + len(uri)
	if h.entry != nil {
		h.cost += h.entry.estimate()
	}
	if v.held == nil {
		v.held = make(map[string]*heldEntry)
	}
	delta := h.cost
	if old := v.held[uri]; old != nil {
		delta -= old.cost
	}
	v.held[uri] = h
	p.pins.Grow(sessionID, delta)
}

func (p *Provider) freshLocked(l listing) bool {
	return l.cat != nil && l.gen == p.indexGen && time.Since(l.readAt) < p.cfg.IndexMaxAge
}

// freshListing returns a listing List may answer the session from without
// asking the server: the session's, or a newer one another session read.
func (p *Provider) freshListing(sessionID string) (listing, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return listing{}, false
	}
	v := p.viewLocked(sessionID)
	switch {
	case p.freshLocked(v.listing):
		return v.listing, true
	case p.freshLocked(p.listing):
		p.pinLocked(sessionID, v, p.listing)
		return v.listing, true
	}
	return listing{}, false
}

// listFlight is the outcome of a shared skills/list walk.
type listFlight struct {
	l listing
	// starterCancelled is set when the walk failed only because the
	// context it ran under ended; the other callers walk again.
	starterCancelled bool
}

// listExt returns a fresh listing for the session, walking skills/list
// unless the session's or the provider's listing is fresh. Concurrent
// callers share one walk; a walk whose entries did not change keeps the
// catalog already built.
func (p *Provider) listExt(ctx context.Context, sessionID string) (listing, error) {
	for {
		if l, ok := p.freshListing(sessionID); ok {
			return l, nil
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return listing{}, ErrClosed
		}
		gen := p.indexGen
		p.mu.Unlock()
		ch := p.listFlight.DoChan("skills/list", func() (any, error) {
			p.mu.Lock()
			p.listingStartsLocked(gen)
			p.mu.Unlock()
			l, err := p.walkListing(ctx, gen)
			return listFlight{l: l, starterCancelled: err != nil && ctx.Err() != nil}, err
		})
		select {
		case r := <-ch:
			f := r.Val.(listFlight)
			if r.Err != nil {
				if f.starterCancelled && ctx.Err() == nil {
					continue
				}
				return listing{}, r.Err
			}
			p.mu.Lock()
			if !p.closed {
				p.pinLocked(sessionID, p.viewLocked(sessionID), f.l)
			}
			p.mu.Unlock()
			return f.l, nil
		case <-ctx.Done():
			return listing{}, ctx.Err()
		}
	}
}

// walkListing walks skills/list and makes its catalog the provider's.
func (p *Provider) walkListing(ctx context.Context, gen uint64) (listing, error) {
	in, err := p.listAll(ctx)
	if err != nil {
		return listing{}, err
	}
	sum := sumEntries(in)
	p.mu.Lock()
	cat := p.listing.cat
	p.mu.Unlock()
	if cat == nil || cat.sum != sum {
		cat = buildCatalog(in)
		cat.sum = sum
		cat.cost = cat.estimate()
	}
	l := listing{cat: cat, readAt: time.Now(), gen: gen}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return listing{}, ErrClosed
	}
	p.listing = l
	p.pins.SetCurrent(cat)
	p.diags = p.cleanAll(cat.diagnostics)
	for _, d := range p.diags {
		p.cfg.Logger.Debug("mcpskills: skills/list diagnostic", "server", p.cfg.endpointLabel(), "diagnostic", d)
	}
	return l, nil
}

// sessionListing returns the listing a load or read resolves names in:
// the session's whatever its age (a skill loads as it was listed), else
// the provider's newest, else a new walk.
func (p *Provider) sessionListing(ctx context.Context, sessionID string) (listing, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return listing{}, ErrClosed
	}
	v := p.viewLocked(sessionID)
	if v.listing.cat == nil && p.listing.cat != nil {
		p.pinLocked(sessionID, v, p.listing)
	}
	l := v.listing
	p.mu.Unlock()
	if l.cat != nil {
		return l, nil
	}
	return p.listExt(ctx, sessionID)
}

// entryFor resolves name in the session's listing and holds the entry for
// the session. An entry a refresh obtained after that listing was read
// takes the listed one's place. found is false for a name no entry (or
// more than one, for a plain name) has, and for a skill the server no
// longer serves; a declined entry is an ErrDeclined error.
func (p *Provider) entryFor(ctx context.Context, sessionID, name string) (*remoteEntry, bool, error) {
	l, err := p.sessionListing(ctx, sessionID)
	if err != nil {
		return nil, false, p.san.wrapForModel("loading skill "+name, err)
	}
	e, ok := l.cat.resolve(name)
	if !ok {
		if d, ok := l.cat.resolveDeclined(name); ok {
			return nil, false, p.skillError(name, ErrDeclined, "%s; not loaded", d.declined)
		}
		return nil, false, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, false, ErrClosed
	}
	v := p.viewLocked(sessionID)
	h := v.held[e.URI]
	switch {
	case h != nil && h.at.After(l.readAt):
		if h.entry == nil {
			return nil, false, nil
		}
		if h.entry.declined != "" {
			return nil, false, p.skillError(name, ErrDeclined, "%s; not loaded", h.entry.declined)
		}
		return h.entry, true, nil
	case h == nil || h.entry != e:
		p.holdLocked(sessionID, v, e.URI, &heldEntry{entry: e, at: l.readAt})
	}
	return e, true, nil
}

// loadExt loads a skill of a server that declares the extension.
func (p *Provider) loadExt(ctx context.Context, req skills.LoadRequest) (skill.Definition, bool, error) {
	e, found, err := p.entryFor(ctx, req.SessionID, req.Name)
	if err != nil || !found {
		return skill.Definition{}, false, err
	}
	c, err := p.readVerified(ctx, req.SessionID, req.Name, e, e.skillFileEntry())
	if err != nil {
		return skill.Definition{}, false, err
	}
	text := contentText(c)
	if err := p.checkUTF8(req.Name, text); err != nil {
		return skill.Definition{}, false, err
	}
	if err := p.checkFrontmatter(ctx, req.SessionID, req.Name, e, text); err != nil {
		return skill.Definition{}, false, err
	}
	return skill.Definition{
		Summary:      entrySummary(p.cfg.Label, e),
		ResourceBase: &skill.ResourceBase{Kind: skill.ResourceURL, URL: e.Root + "/"},
		Content:      stripFrontmatter(text),
		// The entry's frontmatter, which the file's was checked against:
		// requests of an untrusted server (see Entry.RequestedTools).
		Directives: skill.ParseDirectives(e.fields),
	}, true, nil
}

// readVerified reads a file of e's manifest for the session, verified
// against f. A mismatch, or a file the server says it does not serve,
// refreshes the session's entry and is refused with an error naming the
// skill and the server.
func (p *Provider) readVerified(ctx context.Context, sessionID, name string, e *remoteEntry, f *fileEntry) (*Content, error) {
	res, err := p.read(ctx, sessionID, f.URI, readResource, f)
	var mm *contentMismatch
	switch {
	case err == nil:
		return res.content, nil
	case errors.As(err, &mm):
		p.refresh(ctx, sessionID, e)
		if mm.size >= 0 {
			return nil, p.skillError(name, ErrVerification, "%q is %d bytes, its entry says %d; not used", clip(f.Path, 128), mm.size, f.Size)
		}
		return nil, p.skillError(name, ErrVerification, "%q does not match the digest in its entry; not used", clip(f.Path, 128))
	case notServed(err):
		p.refresh(ctx, sessionID, e)
		return nil, p.skillError(name, errors.Join(ErrResourceNotFound, skills.ErrResourceNotFound), "%q is in its entry but the server does not serve it; not read", clip(f.Path, 128))
	}
	return nil, p.san.wrapForModel(fmt.Sprintf("skill %q from MCP server %q: reading %q", clip(name, 128), p.cfg.Label, clip(f.Path, 128)), err)
}

// notServed reports whether the server answered a read with "resource not
// found" or, as the extension's base revision has it, invalid params.
func notServed(err error) bool {
	var werr *jsonrpc.Error
	return isResourceNotFound(err) || errors.As(err, &werr) && werr.Code == jsonrpc.CodeInvalidParams
}

// checkFrontmatter compares the frontmatter of a fetched SKILL.md with the
// entry's, field by field.
func (p *Provider) checkFrontmatter(ctx context.Context, sessionID, name string, e *remoteEntry, text string) error {
	p.mu.Lock()
	var h *heldEntry
	if v := p.sessions[sessionID]; v != nil {
		h = v.held[e.URI]
	}
	done := h != nil && h.entry == e && h.fmChecked
	p.mu.Unlock()
	if done {
		return nil
	}
	fields, err := frontmatterFields(text)
	switch {
	case errors.Is(err, skillsext.ErrFrontmatterTooLarge):
		// The server may list such an entry; the provider cannot check it.
		p.refresh(ctx, sessionID, e)
		return p.skillError(name, ErrVerification, "the frontmatter of SKILL.md is not closed within %d bytes (MaxFrontmatterBytes, 64 KiB), the most the provider reads to compare it with its entry; not loaded", MaxFrontmatterBytes)
	case err != nil:
		p.refresh(ctx, sessionID, e)
		return p.skillError(name, ErrVerification, "SKILL.md has no YAML frontmatter to compare with its entry; not loaded")
	}
	if k := frontmatterDiff(e.fields, fields); k != "" {
		p.refresh(ctx, sessionID, e)
		return p.skillError(name, ErrVerification, "the frontmatter of SKILL.md differs from its entry in field %q; not loaded", clip(k, 64))
	}
	p.mu.Lock()
	if h != nil && h.entry == e {
		h.fmChecked = true
	}
	p.mu.Unlock()
	return nil
}

// refresh asks the server for e's current entry after a verification
// failure and holds it for the session in place of e (nothing, when the
// server no longer serves a valid entry at that URI); then every listing
// goes stale and the registry is told, so that the next step lists again
// and republishes if the catalog changed. A failed request leaves the held
// entry as it was.
func (p *Provider) refresh(ctx context.Context, sessionID string, e *remoteEntry) {
	defer p.indexChanged()
	if ctx.Err() != nil {
		return
	}
	var fresh *remoteEntry
	raw, err := p.getEntry(ctx, e.URI)
	switch {
	case errors.Is(err, errUnknownSkillURI):
	case err != nil:
		p.cfg.Logger.Warn("mcpskills: refreshing a skill's entry failed", "server", p.cfg.endpointLabel(), "error", p.san.clean(err.Error()))
		return
	default:
		ne, _, why := decodeEntry(raw, entryLimits{MaxDescriptionBytes: p.cfg.MaxDescriptionBytes})
		if why == "" && ne.URI == e.URI {
			fresh = ne
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if v := p.sessions[sessionID]; v != nil && !p.closed {
		p.holdLocked(sessionID, v, e.URI, &heldEntry{entry: fresh, at: time.Now()})
	}
}

// readResourceExt is ReadResource for a server that declares the
// extension: uri must be listed in the held entry's manifest.
func (p *Provider) readResourceExt(ctx context.Context, sessionID, name, uri string) (*Content, error) {
	e, found, err := p.entryFor(ctx, sessionID, name)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, ErrUnknownSkill
	}
	var f *fileEntry
	for i := range e.Files {
		if e.Files[i].URI == uri {
			f = &e.Files[i]
			break
		}
	}
	if f == nil {
		p.refresh(ctx, sessionID, e)
		return nil, p.notInEntry(name, uri)
	}
	c, err := p.readVerified(ctx, sessionID, name, e, f)
	if err != nil {
		return nil, err
	}
	out := *c
	out.Blob = slices.Clone(c.Blob)
	return &out, nil
}

// readSkillResourceExt is ReadSkillResource for a server that declares the
// extension: path must be a file of the held entry's manifest.
func (p *Provider) readSkillResourceExt(ctx context.Context, req skills.ResourceRequest) ([]byte, error) {
	e, found, err := p.entryFor(ctx, req.SessionID, req.Name)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, skills.ErrSkillNotFound
	}
	f, ok := e.file(req.Path)
	if !ok {
		p.refresh(ctx, req.SessionID, e)
		return nil, p.notInEntry(req.Name, req.Path)
	}
	if f.Size > skill.MaxResourceBytes {
		return nil, skills.ErrResourceTooLarge
	}
	c, err := p.readVerified(ctx, req.SessionID, req.Name, e, f)
	if err != nil {
		return nil, err
	}
	if c.Blob != nil {
		return c.Blob, nil
	}
	return []byte(c.Text), nil
}

// notInEntry refuses a read of a file the held manifest does not list: a
// verification failure (the manifest is complete, so an unlisted file is a
// change to the skill), reported with the skill and its server named, as
// every verification failure is, not as a file that is merely missing.
func (p *Provider) notInEntry(name, file string) error {
	return p.skillError(name, ErrVerification, "%q is not a file of its entry; not read", clip(file, 128))
}
