package mcpskills

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
)

// maxListPages bounds the pages of one skills/list walk.
const maxListPages = 1024

// listPage is a skills/list result as received. Skills stays raw so that
// one malformed entry costs that entry only; the other members are checked
// by hand.
type listPage struct {
	mcp.ResultBase
	ResultType *string         `json:"resultType,omitempty"`
	Skills     json.RawMessage `json:"skills"`
	NextCursor *string         `json:"nextCursor,omitempty"`
}

// getReply is a skills/get result as received.
type getReply struct {
	mcp.ResultBase
	ResultType *string         `json:"resultType,omitempty"`
	Skill      json.RawMessage `json:"skill"`
}

// registerExtension lets client send the extension's methods.
func registerExtension(client *mcp.Client) {
	// Both fail only for the name of a standard method, which these are not.
	if err := mcp.AddSendingCustomMethod[*skillsext.ListParams, *listPage](client, skillsext.MethodList); err != nil {
		panic(err)
	}
	if err := mcp.AddSendingCustomMethod[*skillsext.GetParams, *getReply](client, skillsext.MethodGet); err != nil {
		panic(err)
	}
}

// declaresExtension reports whether a server's capabilities declare the
// MCP Skills extension: a settings object under capabilities.extensions.
func declaresExtension(caps *mcp.ServerCapabilities) bool {
	if caps == nil {
		return false
	}
	_, ok := caps.Extensions[skillsext.ExtensionID].(map[string]any)
	return ok
}

// errNoExtension is a connection whose server does not (or no longer)
// declare the extension, met while speaking it.
var errNoExtension = errors.New("the server does not declare the MCP Skills extension (" + skillsext.ExtensionID + ")")

// errUnknownSkillURI is skills/get's answer for a URI the server does not
// serve (-32602).
var errUnknownSkillURI = errors.New("no skill is served at that URI")

func checkResultType(rt *string, method string) error {
	if rt != nil && *rt != skillsext.ResultTypeComplete {
		return fmt.Errorf("%s answered with resultType %q, not %q", method, clip(*rt, 32), skillsext.ResultTypeComplete)
	}
	return nil
}

// listAll walks skills/list to its end, or to a bound, and adds the
// configured SkillURIs the listing lacks through skills/get. The walk stops
// at MaxEntries entries, MaxListingBytes bytes of entries, maxListPages
// pages, or a cursor the server already sent (a loop); each bound leaves a
// note. Any failed request fails the whole listing.
func (p *Provider) listAll(ctx context.Context) (catalogInput, error) {
	in := catalogInput{label: p.cfg.Label, limits: entryLimits{MaxDescriptionBytes: p.cfg.MaxDescriptionBytes}}
	var bytes int64
	seen := make(map[string]bool)
	cursor := ""
	full := func() bool { return len(in.entries) >= p.cfg.MaxEntries || bytes >= p.cfg.MaxListingBytes }
walk:
	for page := 0; ; page++ {
		if page == maxListPages {
			in.notes = append(in.notes, fmt.Sprintf("skills/list has more than %d pages: the rest is not read", maxListPages))
			break
		}
		res, err := p.listPage(ctx, cursor)
		if err != nil {
			return in, err
		}
		var items []json.RawMessage
		if len(res.Skills) == 0 || res.Skills[0] != '[' || json.Unmarshal(res.Skills, &items) != nil {
			return in, fmt.Errorf("%s: \"skills\" is not an array", skillsext.MethodList)
		}
		for i, raw := range items {
			if full() {
				in.notes = append(in.notes, fmt.Sprintf("skills/list lists more than %d skills or %d bytes of entries (MaxEntries, MaxListingBytes): the rest is dropped", p.cfg.MaxEntries, p.cfg.MaxListingBytes))
				break walk
			}
			bytes += int64(len(raw))
			in.entries = append(in.entries, rawEntry{raw: raw, from: fmt.Sprintf("skills/list page %d entry %d", page+1, i)})
		}
		if res.NextCursor == nil || *res.NextCursor == "" {
			break
		}
		if seen[*res.NextCursor] {
			in.notes = append(in.notes, "skills/list sent a cursor it had sent before: the listing stops there")
			break
		}
		seen[*res.NextCursor] = true
		cursor = *res.NextCursor
	}
	return in, p.getConfigured(ctx, &in, full)
}

// getConfigured adds an entry for each SkillURIs URI the listing lacks.
func (p *Provider) getConfigured(ctx context.Context, in *catalogInput, full func() bool) error {
	if len(p.cfg.SkillURIs) == 0 {
		return nil
	}
	listed := make(map[string]bool, len(in.entries))
	for _, r := range in.entries {
		var head struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(r.raw, &head) == nil {
			listed[head.URI] = true
		}
	}
	for _, uri := range p.cfg.SkillURIs {
		if listed[uri] {
			continue
		}
		if full() {
			in.notes = append(in.notes, fmt.Sprintf("SkillURIs: %s not fetched: the listing is full (MaxEntries, MaxListingBytes)", clip(uri, 128)))
			continue
		}
		raw, err := p.getEntry(ctx, uri)
		switch {
		case errors.Is(err, errUnknownSkillURI):
			in.notes = append(in.notes, fmt.Sprintf("SkillURIs: the server serves no skill at %s", clip(uri, 128)))
			continue
		case err != nil:
			return err
		}
		in.entries = append(in.entries, rawEntry{raw: raw, from: "skills/get " + clip(uri, 128)})
	}
	return nil
}

// listPage requests one page of skills/list.
func (p *Provider) listPage(ctx context.Context, cursor string) (*listPage, error) {
	var res *listPage
	err := p.call(ctx, func(ctx context.Context, c *conn) error {
		if !c.ext {
			return errNoExtension
		}
		var err error
		res, err = mcp.CallCustomMethod[*skillsext.ListParams, *listPage](ctx, c.cs, skillsext.MethodList, &skillsext.ListParams{Cursor: cursor})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", skillsext.MethodList, err)
	}
	if err := checkResultType(res.ResultType, skillsext.MethodList); err != nil {
		return nil, err
	}
	return res, nil
}

// getEntry requests the entry of the skill whose SKILL.md is at uri and
// returns it raw; errUnknownSkillURI when the server serves none there. An
// entry for another URI is an error.
func (p *Provider) getEntry(ctx context.Context, uri string) (json.RawMessage, error) {
	var res *getReply
	err := p.call(ctx, func(ctx context.Context, c *conn) error {
		if !c.ext {
			return errNoExtension
		}
		var err error
		res, err = mcp.CallCustomMethod[*skillsext.GetParams, *getReply](ctx, c.cs, skillsext.MethodGet, &skillsext.GetParams{URI: uri})
		return err
	})
	var werr *jsonrpc.Error
	switch {
	case errors.As(err, &werr) && werr.Code == jsonrpc.CodeInvalidParams:
		return nil, errUnknownSkillURI
	case err != nil:
		return nil, fmt.Errorf("%s %s: %w", skillsext.MethodGet, clip(uri, 128), err)
	}
	if err := checkResultType(res.ResultType, skillsext.MethodGet); err != nil {
		return nil, err
	}
	var head struct {
		URI string `json:"uri"`
	}
	if json.Unmarshal(res.Skill, &head) != nil || head.URI != uri {
		return nil, fmt.Errorf("%s %s: the server answered with no entry, or the entry of another URI", skillsext.MethodGet, clip(uri, 128))
	}
	return res.Skill, nil
}

// sumEntries identifies a listing's raw entries and notes.
func sumEntries(in catalogInput) [32]byte {
	h := sha256.New()
	for _, n := range in.notes {
		fmt.Fprintf(h, "n%d:%s", len(n), n)
	}
	for _, r := range in.entries {
		fmt.Fprintf(h, "e%d:%s%d:", len(r.from), r.from, len(r.raw))
		h.Write(r.raw)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}
