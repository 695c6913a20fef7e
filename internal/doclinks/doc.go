// Package doclinks holds the test that keeps the repository's Markdown
// documentation linked together: every relative link in README.md and in
// the reference files beside the code (plugin/REFERENCE.md,
// hostsdk/README.md, cmd/skillcatalog/README.md, proto/HOSTS.md, ...) must
// name a file or directory that exists, and a link to a heading of a
// Markdown file must name a heading that file has. It has no code of its
// own outside its test.
package doclinks
