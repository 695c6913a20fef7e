package skill

// MaxSkillFileBytes bounds a whole SKILL.md document (frontmatter
// included) that a provider reads to load a skill, wherever the document
// comes from: a file on disk or a remote server. A provider rejects a larger
// document with an error that names this bound rather than reading on, so a
// hostile or broken source cannot make the host hold an arbitrarily large
// body. It is 8 MiB, the bound the filesystem provider has always applied.
const MaxSkillFileBytes = 8 << 20
