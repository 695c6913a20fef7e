// Package skilllock is the skill lock: which version of each skill a
// project runs, as content digests, in a file of its own
// (skillcatalog-lock.json) or in the skills CLI's skills-lock.json. It is
// pure: it parses, encodes and hashes what it is given; reading a
// directory goes through an fs.FS.
//
// # The lock file
//
// One JSON object, written by Encode with two-space indentation, members
// in this order and the entries sorted by kind, origin and name (byte
// order), so the same skills give the same bytes:
//
//	{
//	  "version": 1,
//	  "skills": [
//	    {"kind": "local", "name": "pdf", "digest": "sha256:…"},
//	    {"kind": "mcp", "origin": "docs", "name": "refunds", "digest": "sha256:…"},
//	    {"kind": "website", "origin": "site", "name": "wrangler", "digest": "sha256:…"}
//	  ]
//	}
//
// kind is local (a skill on disk, or registered by the host), mcp (an MCP
// server's) or website (a discovery index's); origin is the label the host
// gives a remote source, absent for a local skill; name is the skill's
// plain name (a remote skill listed under its qualified name is locked by
// its plain one); (kind, origin, name) is unique. Parse refuses anything
// else with an error naming the entry and the field, and ignores members
// it does not know. A local entry may carry "order": "skills-cli" (below).
//
// # The digests
//
// Every digest is "sha256:" and 64 lower-case hexadecimal digits:
//
//   - local: TreeDigest of the skill's directory: the SHA-256 of, for each
//     regular file under it (symbolic links and other irregular files, and
//     every directory named .git or node_modules, left out), in the byte
//     order of the slash-separated relative paths, the path's UTF-8 bytes
//     immediately followed by the file's bytes, with no separator. A host's
//     runtime skill is one file, SKILL.md, holding its instructions.
//   - website: the SHA-256 of the artifact (SKILL.md or archive) that the
//     v0.2.0 discovery index publishes and the provider verifies; a v0.1.0
//     skill, which has none, FilesDigest of one file SKILL.md holding the
//     instructions it loads (without frontmatter).
//   - mcp: for a server that declares the MCP Skills extension,
//     ManifestDigest of the entry's files: the SHA-256 of, for each file
//     in the byte order of its path, the path, a NUL byte, the digest the
//     server publishes for it ("sha256:…") and a newline, so every file is
//     covered without being read; for any other server, as a v0.1.0
//     website's skill.
//
// # skills-lock.json
//
// The skills CLI (1.7.4) writes skills-lock.json in a project: {"version":
// 1, "skills": {NAME: {"source", "sourceType", "computedHash", …}}}, keys
// sorted, JSON.stringify with two spaces and a newline. ParseSkillsCLI
// keeps every member as written and Encode writes the file back byte for
// byte; Merge updates or adds computedHash. ToLock maps each skill with a
// computedHash to a local entry: the CLI installs skills on disk, where a
// host reads them.
//
// The CLI's computedHash (computeSkillFolderHash) is the hexadecimal
// SHA-256 of the same bytes as TreeDigest's (path then content, the same
// files: it skips .git and node_modules and follows no symbolic link)
// except for one thing: it sorts the paths with JavaScript's localeCompare
// rather than by byte, so upper and lower case sort together and
// "scripts/run.sh" precedes "SKILL.md". A skill of one file, or whose paths
// sort alike both ways, has equal hashes; the others do not. An entry read
// from skills-lock.json therefore carries "order": "skills-cli" and is
// compared with SkillsCLITreeDigest, which sorts with the Unicode root
// collation (golang.org/x/text/collate), as Node.js's ICU collation sorts
// in the default locale (a test checks it against the CLI itself); a
// locale of other rules, or paths the two collators order apart, would
// still differ. The CLI writes no "sha256:" prefix, which ToLock adds and
// Merge drops. The CLI's
// wellKnownDigest, for a skill installed from a website, is the index's
// artifact digest, the website digest above; a lock of the website itself
// records that. Names are sorted by UTF-16 code unit in the CLI and by
// byte here: the same order unless names mix characters beyond U+FFFF
// with ones from U+E000 to U+FFFF.
package skilllock
