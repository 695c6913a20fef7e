package render

// SkillToolDescription is the `skill` tool's description as the model sees it.
const SkillToolDescription = "Load a skill's full instructions by its exact name. Skills are listed in the available skills catalog of this session; call this tool with a listed name when the user names a skill or the task clearly matches a skill's description, before taking task actions. The result contains the skill's instructions and where its referenced resources live."

// SkillToolInputSchema is the JSON Schema of the `skill` tool's arguments.
// It is part of every request's fixed prefix where the tool is visible, so
// it never changes at run time.
const SkillToolInputSchema = `{
  "type": "object",
  "properties": {
    "name": {
      "type": "string",
      "description": "The exact skill name from the available skills list"
    }
  },
  "required": [
    "name"
  ],
  "additionalProperties": false
}`

// SkillToolOutputSchema is the JSON Schema of the `skill` tool's structured
// result, skill.ToolValue: resourceBase is absent when the provider manages its
// resources, origin for the host's own skills, and origin_kind for every skill
// but a website's.
const SkillToolOutputSchema = `{
  "type": "object",
  "properties": {
    "name": {
      "type": "string",
      "description": "The loaded skill's exact name"
    },
    "provider": {
      "type": "string",
      "description": "The provider that supplied the skill"
    },
    "resourceBase": {
      "description": "Where the resources referenced by the instructions live; absent when the provider manages them",
      "oneOf": [
        {
          "type": "object",
          "properties": {
            "kind": {
              "type": "string",
              "const": "directory"
            },
            "path": {
              "type": "string",
              "description": "Base directory for relative paths in the instructions"
            }
          },
          "required": [
            "kind",
            "path"
          ],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "kind": {
              "type": "string",
              "const": "url"
            },
            "url": {
              "type": "string",
              "description": "Base URL for relative URLs in the instructions"
            }
          },
          "required": [
            "kind",
            "url"
          ],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "kind": {
              "type": "string",
              "const": "opaque"
            },
            "description": {
              "type": "string",
              "description": "The provider's guidance for loading referenced resources"
            }
          },
          "required": [
            "kind",
            "description"
          ],
          "additionalProperties": false
        }
      ]
    },
    "content": {
      "type": "string",
      "description": "The skill's full instructions, verbatim"
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
      "description": "Present only for a skill from a website; absent means an MCP server or, without origin, the host's own skill"
    }
  },
  "required": [
    "name",
    "provider",
    "content"
  ],
  "additionalProperties": false
}`
