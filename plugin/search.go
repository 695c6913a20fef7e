package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/internal/search"
	"github.com/skillcatalog/skillcatalog/plugin/internal/view"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// searches reports whether a mount searches its skills: it has the
// skill-search tool, or its users' turns may get the relevant-skills
// message. Its views then carry a search index.
func searches(cfg contract.MountOptions) bool {
	return cfg.SearchTool || cfg.RelevantSkills != contract.RelevantOff
}

// indexOf returns the search index of a complete snapshot's catalog
// entries, built on the index of prev, the view it follows (nil for none):
// only the skills whose indexed text changed are analyzed.
func indexOf(prev *view.View, snap contract.Snapshot) *search.Index {
	base := search.Empty()
	if prev != nil && prev.Index() != nil {
		base = prev.Index()
	}
	entries := make([]skill.Summary, 0, len(snap.Skills))
	var gone []string
	for i := range snap.Skills {
		if view.IsEntry(&snap.Skills[i]) {
			entries = append(entries, snap.Skills[i])
		} else {
			gone = append(gone, snap.Skills[i].Name)
		}
	}
	if snap.DeltaBase == "" {
		return search.Sync(base, entries)
	}
	return search.Update(base, entries, append(gone, snap.Removed...))
}

// searchToolDefinition returns the definition of the skill-search tool that
// a mount with contract.OptionSearchTool asks the host to register.
func searchToolDefinition() contract.ToolDefinition {
	return contract.ToolDefinition{
		Name:         contract.SearchToolName,
		Description:  render.SearchToolDescription,
		InputSchema:  []byte(render.SearchToolInputSchema),
		OutputSchema: []byte(render.SearchToolOutputSchema),
	}
}

// searchArguments checks arguments against the skill-search tool's input
// schema and returns the query and the limit, or the error text that
// refuses them. As for the `skill` tool, arguments that are not a JSON
// object are refused as such, and a field the schema does not allow is
// named (the first in sorted order). The query must be a string of at most
// render.MaxSearchQueryBytes; the limit, when present, a whole number from
// 1 to render.MaxSearchLimit.
func searchArguments(args json.RawMessage) (query string, limit int, refusal render.ToolError) {
	obj, ok := argumentObject(args)
	if !ok {
		if sent := bytes.TrimSpace(args); json.Valid(sent) {
			return "", 0, render.SearchArgumentsOtherJSON(string(sent))
		}
		return "", 0, render.SearchArgumentsNotObject(string(bytes.TrimSpace(args)))
	}
	extra, unexpected := "", false
	for k := range obj {
		if k != "query" && k != "limit" && (!unexpected || k < extra) {
			extra, unexpected = k, true
		}
	}
	if unexpected {
		return "", 0, render.SearchUnexpectedArgument(extra)
	}
	raw, present := obj["query"]
	if !present {
		return "", 0, render.SearchMissingQuery()
	}
	if err := json.Unmarshal(raw, &query); err != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return "", 0, render.SearchQueryNotString(string(bytes.TrimSpace(raw)))
	}
	if len(query) > render.MaxSearchQueryBytes {
		return "", 0, render.SearchQueryTooLong(len(query))
	}
	limit = render.DefaultSearchLimit
	if raw, present := obj["limit"]; present {
		n, err := parseMinInt(raw, 1)
		if err != nil || n > render.MaxSearchLimit {
			return "", 0, render.SearchInvalidLimit(compactJSON(raw))
		}
		limit = n
	}
	return query, limit, ""
}

// executeSearchTool runs one call of the skill-search tool: the skills of
// the agent's complete snapshot that best match the query, with their
// full descriptions, as the catalog would list them.
func (e *engine) executeSearchTool(ctx context.Context, host contract.Host, m mount, call contract.ToolCall) (contract.ToolResult, error) {
	query, limit, refusal := searchArguments(call.Arguments)
	if refusal != "" {
		return errorResult(refusal), nil
	}
	q := search.ParseQuery(query)
	if q.IsEmpty() {
		return errorResult(render.SearchQueryEmpty()), nil
	}
	v, complete, err := e.currentView(ctx, host, m.cfg, contract.SnapshotRequest{SessionID: call.SessionID, Cwd: call.Cwd, AgentScope: call.AgentScope}, call.SnapshotToken, nil)
	if err != nil {
		return contract.ToolResult{}, err
	}
	if !complete {
		return errorResult(render.SearchIncomplete()), nil
	}
	hidden, err := e.scopedOut(ctx, host, v, call.SessionID)
	if err != nil {
		return contract.ToolResult{}, err
	}
	hits := e.rank(ctx, host, m, v, q, query, limit+len(hidden))
	hits = slices.DeleteFunc(hits, func(h search.Hit) bool { return hidden[h.Name] })
	hits = hits[:min(len(hits), limit)]
	result := &skill.SearchResult{Query: query, Hits: make([]skill.SearchHit, len(hits))}
	entries := make([]digest.Entry, len(hits))
	for i, h := range hits {
		result.Hits[i] = skill.SearchHit{Name: h.Name, Description: h.Description, Origin: h.Origin, OriginKind: h.OriginKind, Score: h.Score}
		entries[i] = digest.Entry{Name: h.Name, Description: h.Description, Origin: h.Origin, OriginKind: digestKind(h.OriginKind)}
	}
	return contract.ToolResult{Search: result, Text: render.SearchResults(query, entries)}, nil
}

// searchView returns the catalog entries of v that best match q, at most
// limit. The index holds exactly the view's entries; the lookup keeps
// that promise whatever happens to the index.
func searchView(v *view.View, q search.Query, limit int) []search.Hit {
	ix := v.Index()
	if ix == nil {
		return nil
	}
	return listedOnly(v, ix.Search(q, limit))
}

// listedOnly removes from hits any skill v does not list as a catalog
// entry.
func listedOnly(v *view.View, hits []search.Hit) []search.Hit {
	return slices.DeleteFunc(hits, func(h search.Hit) bool {
		invocable, listed := v.Lookup(h.Name)
		return !invocable || !listed
	})
}

// digestKind converts an origin's kind for a catalog line.
func digestKind(k skill.OriginKind) digest.OriginKind {
	if k == skill.OriginWebsite {
		return digest.OriginWebsite
	}
	return digest.OriginMCPServer
}
