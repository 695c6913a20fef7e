package render

import (
	"strconv"
	"strings"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/skill"
)

// The skill-search tool's bounds: a query is at most MaxSearchQueryBytes,
// and a search returns at most MaxSearchLimit skills, DefaultSearchLimit
// when the call names no limit.
const (
	MaxSearchQueryBytes = 1024
	MaxSearchLimit      = 10
	DefaultSearchLimit  = 5
)

// SearchToolDescription is the skill-search tool's description as the
// model sees it.
const SearchToolDescription = "Find skills by what they are for: describe the task in a few words and get the skills that best match it, best first, each with its full description. Use it when the skill catalog shows names without descriptions, leaves skills out, or lists no skill that clearly matches the task. Then load the skill that applies with the " + skill.ToolName + " tool before acting on it."

// SearchToolInputSchema is the JSON Schema of the skill-search tool's
// arguments.
const SearchToolInputSchema = `{
  "type": "object",
  "properties": {
    "query": {
      "type": "string",
      "maxLength": 1024,
      "description": "What the task needs, in a few words, for example: fill in a PDF form"
    },
    "limit": {
      "type": "integer",
      "minimum": 1,
      "maximum": 10,
      "description": "The most skills to return; absent means 5"
    }
  },
  "required": [
    "query"
  ],
  "additionalProperties": false
}`

// SearchToolOutputSchema is the JSON Schema of the skill-search tool's
// structured result.
const SearchToolOutputSchema = `{
  "type": "object",
  "properties": {
    "query": {
      "type": "string",
      "description": "The query, as given"
    },
    "hits": {
      "type": "array",
      "description": "The skills that best match the query, best first",
      "items": {
        "type": "object",
        "properties": {
          "name": {
            "type": "string",
            "description": "The skill's exact name, to load it with the skill tool"
          },
          "description": {
            "type": "string",
            "description": "The skill's full description, normalized"
          },
          "origin": {
            "type": "string",
            "description": "For a remote skill, the host's label of the MCP server or website that serves it; absent for the host's own skills"
          },
          "origin_kind": {
            "type": "string",
            "enum": [
              "website"
            ],
            "description": "Present only for a skill from a website"
          },
          "score": {
            "type": "number",
            "description": "How well the skill matches: higher is better, comparable only within one search"
          }
        },
        "required": [
          "name",
          "description",
          "score"
        ],
        "additionalProperties": false
      }
    }
  },
  "required": [
    "query",
    "hits"
  ],
  "additionalProperties": false
}`

// searchFooter follows the list of a search that found skills.
const searchFooter = "These skills best match the query, best first. A description is not the skill's instructions: to use a skill that applies, call the `" +
	skill.ToolName + "` tool with its exact name and follow its instructions."

// searchNoHits follows the empty list of a search that found nothing.
const searchNoHits = "No skill matches the query. Search again with other words for the task, or go on without a skill."

// SearchResults renders a skill search's result: the query (capped at
// MaxEchoBytes, escaped) and one catalog line per skill found, best
// first, remote skills naming their source as in the catalog, followed by
// what to do with them and, when remote skills are listed, the sentence
// of their kinds of source (RemoteOrigins.Note). Descriptions must be
// normalized.
func SearchResults(query string, hits []digest.Entry) string {
	var b strings.Builder
	size := len(query) + len(searchFooter) + 256
	for _, h := range hits {
		size += len(h.Name) + len(h.Description) + len(h.Origin) + 64
	}
	b.Grow(size)
	b.WriteString(`<skill_search_results query="`)
	b.WriteString(EscapeAttr(oneLine(echo(query))))
	b.WriteString("\">\n")
	var line []byte
	for _, h := range hits {
		line = AppendEntryLine(line[:0], h)
		b.Write(line)
	}
	b.WriteString("</skill_search_results>\n\n")
	if len(hits) == 0 {
		b.WriteString(searchNoHits)
		return b.String()
	}
	b.WriteString(searchFooter)
	if note := RemoteOriginsOf(hits).Note(); note != "" {
		b.WriteString(" " + note)
	}
	return b.String()
}

// oneLine replaces every control character of s with a space, so that an
// attribute value stays on its line.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return ' '
		}
		return r
	}, s)
}

func isControl(r rune) bool { return r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// The skill-search tool's error texts.

// SearchUnexpectedArgument refuses a field besides "query" and "limit".
func SearchUnexpectedArgument(field string) ToolError {
	return ToolError(`Error: unexpected argument "` + echo(field) + `"; the ` + skill.SearchToolName + ` tool takes only "query" and "limit"`)
}

// SearchArgumentsOtherJSON refuses arguments that are JSON of another
// type than an object.
func SearchArgumentsOtherJSON(args string) ToolError {
	return ToolError(`Error: the arguments are ` + jsonKind(args) + `, not an object: ` + echo(args) + `; the ` + skill.SearchToolName + ` tool takes {"query": "<what the task needs>"} and an optional "limit"`)
}

// SearchArgumentsNotObject refuses arguments that are not JSON.
func SearchArgumentsNotObject(args string) ToolError {
	return ToolError(`Error: the arguments are not a JSON object: "` + echo(args) + `"; the ` + skill.SearchToolName + ` tool takes {"query": "<what the task needs>"} and an optional "limit"`)
}

// SearchMissingQuery refuses arguments without a query.
func SearchMissingQuery() ToolError {
	return ToolError(`Error: the required argument "query" is missing; the ` + skill.SearchToolName + ` tool takes {"query": "<what the task needs>"} and an optional "limit"`)
}

// SearchQueryNotString refuses a query that is not a JSON string,
// shown as its JSON text.
func SearchQueryNotString(raw string) ToolError {
	return ToolError(`Error: the query must be a string of words, not ` + echo(raw))
}

// SearchQueryEmpty refuses a query without a word to search for.
func SearchQueryEmpty() ToolError {
	return ToolError(`Error: the query holds no word to search for; describe the task in a few words`)
}

// SearchQueryTooLong refuses a query of more than MaxSearchQueryBytes.
func SearchQueryTooLong(n int) ToolError {
	return ToolError(`Error: the query is ` + strconv.Itoa(n) + ` bytes long, more than the ` + strconv.Itoa(MaxSearchQueryBytes) + ` the ` + skill.SearchToolName + ` tool reads; describe the task in fewer words`)
}

// SearchInvalidLimit refuses a limit that is not a whole number from 1
// to MaxSearchLimit, shown as its JSON text.
func SearchInvalidLimit(raw string) ToolError {
	return ToolError(`Error: invalid limit ` + echo(raw) + `; the limit is a whole number from 1 to ` + strconv.Itoa(MaxSearchLimit))
}

// SearchIncomplete is the skill-search tool's error while a source of
// skills is not answering: the search would miss its skills.
func SearchIncomplete() ToolError {
	return ToolError(`Error: the skill list is incomplete right now (a source of skills is not answering), so a search would miss skills; try again later, or load a skill named in the catalog with the ` + skill.ToolName + ` tool`)
}

// SearchWithoutSkill is the skill-search tool's error for an agent
// whose `skill` tool is not this mount's: it could load none of what the
// search finds.
func SearchWithoutSkill() ToolError {
	return ToolError(`Error: the ` + skill.SearchToolName + ` tool finds skills to load with the ` + skill.ToolName + ` tool, which is not available to this agent`)
}
