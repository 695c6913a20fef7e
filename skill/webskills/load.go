package webskills

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// Load implements skills.Provider. name is a skill's plain name or its
// qualified name (label:name). The skill must be listed in the index the
// session's catalog came from. Its artifact is fetched (or taken from the
// cache, where only verified artifacts are kept), checked against the
// index's digest before anything else is done with it, unpacked when it is
// an archive, and its SKILL.md must name the skill the index names. The
// definition's instructions are the SKILL.md without its frontmatter; its
// resource base is skill://<name>/, whose files skill_resource reads
// through the host (ReadSkillResource).
func (p *Provider) Load(ctx context.Context, req skills.LoadRequest) (skill.Definition, bool, error) {
	if err := ctx.Err(); err != nil {
		return skill.Definition{}, false, p.skillError(req.Name, err, "loading: %v", err)
	}
	name, ok := p.plainName(req.Name)
	if !ok {
		return skill.Definition{}, false, nil
	}
	l, err := p.sessionListing(ctx, req.SessionID)
	if err != nil {
		return skill.Definition{}, false, p.skillError(req.Name, kindOf(err), "reading the index: %v", err)
	}
	e := l.ix.lookup(name)
	if e == nil {
		return skill.Definition{}, false, nil
	}
	a, err := p.artifact(ctx, l.ix.gen, e, req.Name)
	if err != nil {
		return skill.Definition{}, false, err
	}
	pol, err := p.checkSkillFile(e, a.skillMD, req.Name)
	if err != nil {
		return skill.Definition{}, false, err
	}
	return skill.Definition{
		Summary:      p.summary(e, pol),
		ResourceBase: &skill.ResourceBase{Kind: skill.ResourceURL, URL: skillsext.BaseURI(e.Name)},
		Content:      skillsext.StripFrontmatter(string(a.skillMD)),
	}, true, nil
}

// checkSkillFile reads the SKILL.md: it must be UTF-8 (refused, never
// repaired, as a SKILL.md on disk is: the plugin protocol carries UTF-8
// only), and its frontmatter must name the skill the index names; it may
// narrow who invokes it.
func (p *Provider) checkSkillFile(e *entry, md []byte, asked string) (skill.InvocationPolicy, error) {
	pol := skill.DefaultPolicy()
	if !utf8.Valid(md) {
		err := skill.CheckUTF8(skillsext.SkillFileName, string(md))
		return pol, p.skillError(asked, err, "%v; not loaded", err)
	}
	obj, _, err := skillsext.FrontmatterJSON(md)
	if err != nil {
		return pol, p.skillError(asked, ErrVerification, "its SKILL.md has no readable YAML frontmatter (%v); not loaded", err)
	}
	var fields map[string]any
	if err := json.Unmarshal(obj, &fields); err != nil {
		return pol, p.skillError(asked, ErrVerification, "its SKILL.md frontmatter cannot be read; not loaded")
	}
	if n, _ := fields["name"].(string); n != e.Name {
		return pol, p.skillError(asked, ErrVerification, "its SKILL.md names the skill %q, the index %q; not loaded", skillsext.Clip(n, 80), e.Name)
	}
	if v, ok := fields["disable-model-invocation"].(bool); ok && v {
		pol.ModelInvocable = false
	}
	if v, ok := fields["user-invocable"].(bool); ok && !v {
		pol.UserInvocable = false
	}
	return pol, nil
}

// artifactKey keys the cache: a verified artifact by its digest, a v0.1.0
// file (which has none) by its URL.
func artifactKey(e *entry, u *url.URL) string {
	if e.HasDigest {
		return "sha256:" + hex.EncodeToString(e.Digest[:])
	}
	return "url:" + u.String()
}

// artifactURL is where an entry's SKILL.md or archive is: its url, or for
// a v0.1.0 entry SKILL.md in its directory.
func artifactURL(e *entry) *url.URL {
	if e.HasDigest {
		return e.URL
	}
	return e.URL.ResolveReference(&url.URL{Path: skillsext.SkillFileName})
}

// artifact returns the entry's verified artifact, fetching it unless it is
// cached: by its digest, or, for a v0.1.0 SKILL.md (which has none), by
// its URL while HTTP caching allows (see artifact.fresh; then the request
// is conditional). gen is the index the caller's listing came from.
// Concurrent loads of one artifact share a fetch.
func (p *Provider) artifact(ctx context.Context, gen uint64, e *entry, asked string) (*artifact, error) {
	u := artifactURL(e)
	key := artifactKey(e, u)
	cached, ok := p.artifacts.Get(key)
	switch {
	case ok && (e.HasDigest || cached.fresh(gen)):
		return cached, nil
	case !ok:
		cached = nil
	}
	ch := p.fetchFlight.DoChan(flightKey(key, e.HasDigest, gen), func() (any, error) {
		return p.fetchArtifact(e, u, key, asked, cached, gen)
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*artifact), nil
	case <-ctx.Done():
		return nil, p.skillError(asked, ctx.Err(), "fetching its artifact: %v", ctx.Err())
	}
}

// flightKey is the fetch of key for a listing of index gen: callers of
// one index share a revalidation of a file cached by its URL.
func flightKey(key string, digested bool, gen uint64) string {
	if digested {
		return key
	}
	return key + "\x00" + strconv.FormatUint(gen, 10)
}

// fetchArtifact fetches, verifies and (for an archive) unpacks an
// artifact, and caches it once verified; with prev, the copy of a v0.1.0
// file cached by its URL, the request is conditional and a 304 keeps prev.
// A digest mismatch marks the index stale.
func (p *Provider) fetchArtifact(e *entry, u *url.URL, key, asked string, prev *artifact, gen uint64) (*artifact, error) {
	limit := int64(skill.MaxSkillFileBytes)
	if e.Type == skillsext.TypeArchive {
		limit = p.cfg.MaxArtifactBytes
	}
	resp, err := p.f.get(p.ctx, u, limit, prev.conditions())
	if err != nil {
		return nil, p.skillError(asked, kindOf(err), "fetching %s: %v", what(e), err)
	}
	if resp.notModified {
		return p.revalidated(key, prev, resp, gen), nil
	}
	if e.HasDigest && sha256.Sum256(resp.body) != e.Digest {
		p.stale()
		return nil, p.skillError(asked, ErrVerification, "%s does not match the digest in the index; not used", what(e))
	}
	a := &artifact{skillMD: resp.body}
	if e.Type == skillsext.TypeArchive {
		f, err := detectFormat(resp.contentType, resp.url)
		if err == nil {
			var up *unpacked
			if up, err = unpack(resp.body, f, defaultUnpackLimits()); err == nil {
				a = &artifact{skillMD: up.files[skillsext.SkillFileName], files: up.files}
			}
		}
		if err != nil {
			return nil, p.skillError(asked, kindOf(err), "%v; not unpacked", err)
		}
	}
	// Only an artifact that names its skill is kept.
	if _, err := p.checkSkillFile(e, a.skillMD, asked); err != nil {
		return nil, err
	}
	if !e.HasDigest {
		a.http = p.caching(resp, gen)
	}
	p.artifacts.Add(key, a, artifactCost(a))
	return a, nil
}

// conditions are the validators to revalidate a cached copy with, or nil
// for an unconditional request.
func (a *artifact) conditions() *validators {
	if a == nil || a.http.val == (validators{}) {
		return nil
	}
	return &a.http.val
}

// caching is what resp allows of a copy cached by its URL, fetched for a
// listing of index gen: its Cache-Control max-age (less Age), none under
// no-cache or no-store (every use asks again, conditionally), else
// Options.DefaultMaxAge; never more than MaxRefresh.
func (p *Provider) caching(resp *response, gen uint64) httpCaching {
	age := p.cfg.DefaultMaxAge
	if resp.hasMaxAge {
		age = resp.maxAge
	}
	return httpCaching{val: resp.validators, freshUntil: time.Now().Add(min(age, MaxRefresh)), indexGen: gen}
}

// revalidated is prev, which the site answered 304 for a listing of index
// gen, cached again with the response's freshness.
func (p *Provider) revalidated(key string, prev *artifact, resp *response, gen uint64) *artifact {
	a := *prev
	a.http = p.caching(resp, max(gen, prev.http.indexGen))
	if resp.validators == (validators{}) {
		a.http.val = prev.http.val
	}
	p.artifacts.Add(key, &a, artifactCost(&a))
	return &a
}

// what names an entry's artifact in an error.
func what(e *entry) string {
	if e.Type == skillsext.TypeArchive {
		return "its archive"
	}
	return "SKILL.md"
}

func artifactCost(a *artifact) int {
	n := len(a.skillMD)
	if a.files != nil {
		n = 0
		for k, v := range a.files {
			n += len(k) + len(v) + 64
		}
	}
	return n + 128
}

// ReadSkillResource implements skills.ResourceReader: one file of a skill
// the session's index lists, by its path relative to the skill's
// directory. An archive skill's files are its unpacked, verified archive's;
// a skill-md skill has SKILL.md alone; a v0.1.0 skill's are the files its
// entry lists, fetched unverified (that index has no digests). A path
// that is not among them is skills.ErrResourceNotFound without a request;
// a file over skill.MaxResourceBytes is skills.ErrResourceTooLarge.
func (p *Provider) ReadSkillResource(ctx context.Context, req skills.ResourceRequest) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name, ok := p.plainName(req.Name)
	if !ok {
		return nil, skills.ErrSkillNotFound
	}
	l, err := p.sessionListing(ctx, req.SessionID)
	if err != nil {
		return nil, p.skillError(req.Name, kindOf(err), "reading the index: %v", err)
	}
	e := l.ix.lookup(name)
	if e == nil {
		return nil, skills.ErrSkillNotFound
	}
	var data []byte
	if e.HasDigest {
		data, err = p.verifiedFile(ctx, l.ix.gen, e, req)
	} else {
		data, err = p.legacyFile(ctx, l.ix.gen, e, req)
	}
	switch {
	case err != nil:
		return nil, err
	case len(data) > skill.MaxResourceBytes:
		return nil, skills.ErrResourceTooLarge
	}
	return bytes.Clone(data), nil
}

// verifiedFile reads a file out of a v0.2.0 skill's verified artifact.
func (p *Provider) verifiedFile(ctx context.Context, gen uint64, e *entry, req skills.ResourceRequest) ([]byte, error) {
	a, err := p.artifact(ctx, gen, e, req.Name)
	if err != nil {
		return nil, err
	}
	if a.files == nil {
		if req.Path == skillsext.SkillFileName {
			return a.skillMD, nil
		}
		return nil, skills.ErrResourceNotFound
	}
	data, ok := a.files[req.Path]
	if !ok {
		return nil, skills.ErrResourceNotFound
	}
	return data, nil
}

// legacyFile reads a file a v0.1.0 entry lists, from the skill's
// directory, for a listing of index gen: cached by its URL while HTTP
// caching allows, as a v0.1.0 SKILL.md is (see artifact.fresh).
func (p *Provider) legacyFile(ctx context.Context, gen uint64, e *entry, req skills.ResourceRequest) ([]byte, error) {
	listed := false
	for _, f := range e.Files {
		listed = listed || f == req.Path
	}
	if !listed {
		return nil, skills.ErrResourceNotFound
	}
	u := e.URL.ResolveReference(&url.URL{Path: req.Path})
	key := "url:" + u.String()
	cached, ok := p.artifacts.Get(key)
	switch {
	case ok && cached.fresh(gen):
		return cached.skillMD, nil
	case !ok:
		cached = nil
	}
	ch := p.fetchFlight.DoChan(flightKey(key, false, gen), func() (any, error) {
		resp, err := p.f.get(p.ctx, u, skill.MaxResourceBytes, cached.conditions())
		var se *statusError
		switch {
		case errors.As(err, &se) && se.code == 404:
			return nil, fmt.Errorf("%w: %w", skills.ErrResourceNotFound, p.skillError(req.Name, nil, "reading %q: %v", req.Path, err))
		case errors.Is(err, errTooLarge):
			return nil, skills.ErrResourceTooLarge
		case err != nil:
			return nil, p.skillError(req.Name, kindOf(err), "reading %q: %v", req.Path, err)
		case resp.notModified:
			return p.revalidated(key, cached, resp, gen), nil
		}
		a := &artifact{skillMD: resp.body, http: p.caching(resp, gen)}
		p.artifacts.Add(key, a, artifactCost(a))
		return a, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*artifact).skillMD, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
