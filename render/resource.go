package render

import (
	"strconv"
	"strings"

	"github.com/skillcatalog/skillcatalog/skill"
)

// ResourcePageBytes is the most text bytes one resource-read call returns.
// A page ends on a UTF-8 character boundary, so it may hold up to three
// bytes fewer.
const ResourcePageBytes = 8192

// ResourceToolDescription is the resource-read tool's description as the
// model sees it.
const ResourceToolDescription = "Read a text file that a loaded skill's instructions reference, by the skill's exact name and the file's path relative to the skill's resource base (for example scripts/extract.py). Each call returns at most 8192 bytes together with the file's total size; when more remains, the result says which offset to continue from. Read only files that the skill's instructions explicitly reference, on demand, only when the task needs them."

// ResourceToolInputSchema is the JSON Schema of the resource-read tool's
// arguments.
const ResourceToolInputSchema = `{
  "type": "object",
  "properties": {
    "name": {
      "type": "string",
      "description": "The exact name of the skill whose resource to read"
    },
    "path": {
      "type": "string",
      "description": "The file's path relative to the skill's resource base, as the instructions reference it, for example scripts/extract.py"
    },
    "offset": {
      "type": "integer",
      "minimum": 0,
      "description": "Byte position to continue from, as the previous result of this file gave it; absent or 0 reads from the start"
    }
  },
  "required": [
    "name",
    "path"
  ],
  "additionalProperties": false
}`

// ResourceToolOutputSchema is the JSON Schema of the resource-read tool's
// structured result, skill.ResourcePage.
const ResourceToolOutputSchema = `{
  "type": "object",
  "properties": {
    "name": {
      "type": "string",
      "description": "The skill's exact name"
    },
    "path": {
      "type": "string",
      "description": "The file's path relative to the skill's resource base"
    },
    "offset": {
      "type": "integer",
      "minimum": 0,
      "description": "Byte position of the page's first byte"
    },
    "nextOffset": {
      "type": "integer",
      "minimum": 0,
      "description": "Byte position to continue from; absent on the file's last page"
    },
    "totalBytes": {
      "type": "integer",
      "minimum": 0,
      "description": "Size of the whole file in bytes"
    },
    "content": {
      "type": "string",
      "description": "The page's text, verbatim"
    }
  },
  "required": [
    "name",
    "path",
    "offset",
    "totalBytes",
    "content"
  ],
  "additionalProperties": false
}`

// ResourcePage renders the resource-read tool's text result: one
// <skill_resource> element whose attributes say which bytes of the file the
// page holds, and, when more remains, a line after it saying where to
// continue:
//
//	<skill_resource name="NAME" path="PATH" offset="O" bytes="B" total_bytes="T" next_offset="N">
//	TEXT
//	</skill_resource>
//	More of this file remains: call skill_resource with "offset": N to continue.
//
// next_offset and the last line are present exactly when the file
// continues after the page. The name and path are escaped for their
// attributes; the text is inserted verbatim. It is the page of one of the
// host's own skills; ResourcePageFrom renders a remote skill's.
func ResourcePage(p skill.ResourcePage) string {
	return ResourcePageFrom(p, "", skill.OriginMCPServer)
}

// ResourcePageFrom renders a page of a file of a skill whose origin is
// origin, a source of the given kind: as ResourcePage for the host's own
// skills (origin "", kind ignored). A remote skill's page (any origin that
// is not the host's own) names its source, by the words of its kind, in an
// attribute after the skill's name (mcp_server="ORIGIN" or
// website="ORIGIN") and on a line after the element, which says the text is
// untrusted and shown escaped; its text is escaped like prose (& < >
// become &amp; &lt; &gt;), so that no byte of the file can close the
// element or open a tag of its own:
//
//	<skill_resource name="NAME" mcp_server="ORIGIN" path="PATH" offset="O" bytes="B" total_bytes="T">
//	ESCAPED TEXT
//	</skill_resource>
//	This file comes from the MCP server `ORIGIN`, a remote server this host connects to: ...
//
// A website's page says website="ORIGIN" and "This file comes from the
// website `ORIGIN`, a remote site this host fetches skills from: ...". A
// kind package skill does not define is shown as an MCP server's: the
// caller (the plugin) never passes one, and a page cannot fail.
//
// bytes counts the file's bytes, not the escaped text's. The caller cuts a
// remote page so that its escaped text holds at most ResourcePageBytes
// (FitEscaped).
func ResourcePageFrom(p skill.ResourcePage, origin string, kind skill.OriginKind) string {
	specials := "" // the host's own text is written as it is
	var texts *originTexts
	if origin != "" {
		specials = textSpecials
		var ok bool
		if texts, ok = textsOf(kind); !ok {
			texts = &mcpServerTexts
		}
	}
	var b strings.Builder
	b.Grow(resourcePageLen(p, origin, texts, specials))
	b.WriteString(`<skill_resource name="`)
	writeEscaped(&b, p.Name, attrSpecials)
	if texts != nil {
		b.WriteString(texts.attr)
		writeEscaped(&b, origin, attrSpecials)
	}
	b.WriteString(`" path="`)
	writeEscaped(&b, p.Path, attrSpecials)
	b.WriteString(`" offset="`)
	b.WriteString(strconv.FormatInt(p.Offset, 10))
	b.WriteString(`" bytes="`)
	b.WriteString(strconv.Itoa(len(p.Content)))
	b.WriteString(`" total_bytes="`)
	b.WriteString(strconv.FormatInt(p.TotalBytes, 10))
	if p.NextOffset != nil {
		b.WriteString(`" next_offset="`)
		b.WriteString(strconv.FormatInt(*p.NextOffset, 10))
	}
	b.WriteString("\">\n")
	writeEscaped(&b, p.Content, specials)
	b.WriteString("\n</skill_resource>")
	if texts != nil {
		b.WriteString("\n")
		b.WriteString(texts.pagePrefix)
		writeEscaped(&b, origin, textSpecials)
		b.WriteString(texts.pageNote)
	}
	if p.NextOffset != nil {
		b.WriteString("\nMore of this file remains: call " + skill.ResourceToolName + ` with "offset": `)
		b.WriteString(strconv.FormatInt(*p.NextOffset, 10))
		b.WriteString(" to continue.")
	}
	return b.String()
}

// resourcePageLen is at least the length of ResourcePageFrom's text: the
// numbers are counted at their longest. texts are the origin's, nil for the
// host's own skill.
func resourcePageLen(p skill.ResourcePage, origin string, texts *originTexts, specials string) int {
	const (
		fixed  = len(`<skill_resource name="" path="" offset="" bytes="" total_bytes="">`) + len("\n\n</skill_resource>")
		number = len("-9223372036854775808")
		more   = len(`" next_offset=""`) + len("\nMore of this file remains: call "+skill.ResourceToolName+` with "offset": `+" to continue.") + 2*number
	)
	n := fixed + 3*number + escapedLen(p.Name, attrSpecials) + escapedLen(p.Path, attrSpecials) + escapedLen(p.Content, specials)
	if p.NextOffset != nil {
		n += more
	}
	if texts != nil {
		n += len(texts.attr) + len("\n") + len(texts.pagePrefix) + len(texts.pageNote) +
			escapedLen(origin, attrSpecials) + escapedLen(origin, textSpecials)
	}
	return n
}

// The resource-read tool's error texts. The skill name errors (invalid,
// unknown, not model-invocable) and provider errors are the `skill`
// tool's: InvalidName, UnknownSkill, NotModelInvocable and
// ProviderFailed (ProviderFailedUntrusted for a remote skill's). Every name, path
// or argument the model sent is inserted as given, capped at MaxEchoBytes;
// a path is checked to hold no control
// character before it is repeated anywhere but in InvalidPath, which
// shows it as a Go string literal when it does (skill.QuoteUnsafe).

// ResourceUnexpectedArgument is the resource-read tool's error text for
// arguments with a field its input schema does not allow.
func ResourceUnexpectedArgument(field string) ToolError {
	return ToolError(`Error: unexpected argument "` + echo(field) + `"; the ` + skill.ResourceToolName + ` tool takes only "name", "path" and "offset"`)
}

// ResourceArgumentsOtherJSON is the resource-read tool's error text for
// arguments that are JSON of another type than an object (see
// ArgumentsOtherJSON).
func ResourceArgumentsOtherJSON(args string) ToolError {
	return ToolError(`Error: the arguments are ` + jsonKind(args) + `, not an object: ` + echo(args) + `; the ` + skill.ResourceToolName + ` tool takes {"name": "<skill name>", "path": "<path>"} and an optional "offset"`)
}

// ResourceMissingName is the resource-read tool's error text for an
// arguments object without the required "name".
func ResourceMissingName() ToolError {
	return ToolError(`Error: the required argument "name" is missing; the ` + skill.ResourceToolName + ` tool takes {"name": "<skill name>", "path": "<path>"} and an optional "offset"`)
}

// ResourceArgumentsNotObject is the resource-read tool's error text for
// arguments that are not a JSON object (see ArgumentsNotObject).
func ResourceArgumentsNotObject(args string) ToolError {
	return ToolError(`Error: the arguments are not a JSON object: "` + echo(args) + `"; the ` + skill.ResourceToolName + ` tool takes {"name": "<skill name>", "path": "<path>"} and an optional "offset"`)
}

// InvalidPath is the resource-read tool's error text for a path it
// refuses before reading: why says what is wrong with it (see
// plugin.ValidateResourcePath), or that the host found it leaving the
// skill's resources.
func InvalidPath(path, why string) ToolError {
	return ToolError(`Error: invalid resource path ` + quotePath(path) + `: ` + why)
}

// InvalidOffset is the resource-read tool's error text for an offset
// that is not a whole number of bytes from 0. The offset's JSON text is
// inserted as sent, capped at MaxEchoBytes.
func InvalidOffset(raw string) ToolError {
	return ToolError(`Error: invalid offset ` + echo(raw) + `; the offset is a whole number of bytes from 0 to 2147483647`)
}

// ResourceNotFound is the resource-read tool's error text for a path
// that names no readable file of the skill.
func ResourceNotFound(name, path string) ToolError {
	return ToolError(`Error: resource ` + quotePath(path) + ` of skill "` + echo(name) + `" was not found`)
}

// ResourceNotReadable is the resource-read tool's error text for a skill
// whose resources the tool cannot read: an opaque resource base (the
// `skill` result says how to load them), one its provider manages without
// offering reads, or a host without resource reads.
func ResourceNotReadable(name string) ToolError {
	return ToolError(`Error: the resources of skill "` + echo(name) + `" are not readable through the ` + skill.ResourceToolName + ` tool; load them as the skill's resource guidance describes`)
}

// ResourceBinary is the resource-read tool's error text for a file that
// is not text: it holds a NUL byte or bytes that are not UTF-8. The tool
// reads text only and never encodes binary content for the model.
func ResourceBinary(name, path string) ToolError {
	return ToolError(`Error: resource ` + quotePath(path) + ` of skill "` + echo(name) + `" is binary (it holds a NUL byte or bytes that are not UTF-8); the ` + skill.ResourceToolName + ` tool reads text files only`)
}

// ResourceTooLarge is the resource-read tool's error text for a file
// larger than skill.MaxResourceBytes.
func ResourceTooLarge(name, path string) ToolError {
	return ToolError(`Error: resource ` + quotePath(path) + ` of skill "` + echo(name) + `" is larger than ` + strconv.Itoa(skill.MaxResourceBytes) + ` bytes, the most the ` + skill.ResourceToolName + ` tool reads`)
}

// OffsetPastEnd is the resource-read tool's error text for an offset at
// or past the end of a non-empty file (offset 0 of an empty file reads an
// empty page).
func OffsetPastEnd(name, path string, offset, total int64) ToolError {
	return ToolError(`Error: offset ` + strconv.FormatInt(offset, 10) + ` is at or past the end of resource ` + quotePath(path) + ` of skill "` + echo(name) + `" (` + strconv.FormatInt(total, 10) + ` bytes); the file was read to its end`)
}

// quotePath shows a path the model sent: in double quotes, or as a Go
// string literal when it holds a control or format character or bytes
// that are not UTF-8; capped at MaxEchoBytes either way.
func quotePath(path string) string {
	if q := skill.QuoteUnsafe(path); q != path {
		return echo(q)
	}
	return `"` + echo(path) + `"`
}

// ResourceToolWithoutSkill is the resource-read tool's error text for
// an agent whose `skill` tool is not the one of the plugin that registered
// the resource-read tool (restricted away, or shadowed by a tool of the
// agent's own): the resources belong to skills it cannot load.
func ResourceToolWithoutSkill() ToolError {
	return ToolError(`Error: the ` + skill.ResourceToolName + ` tool reads the resources of skills loaded with the ` + skill.ToolName + ` tool, which is not available to this agent`)
}

// UnknownTool is the error text for a call of a tool name the mount did
// not register (a host that forwarded a call it should have kept). The
// name is inserted as given, capped at MaxEchoBytes.
func UnknownTool(name string) ToolError {
	return ToolError(`Error: tool "` + echo(name) + `" is not provided by this plugin mount`)
}
