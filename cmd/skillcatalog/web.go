package main

import (
	"flag"

	"github.com/skillcatalog/skillcatalog/skill/webskills"
)

// webOptions are the demo's flags for skills from a website.
type webOptions struct {
	url       string
	label     string
	allowHTTP bool
}

func (o *webOptions) flags(fl *flag.FlagSet) {
	fl.StringVar(&o.url, "web-url", "", "also list the skills the website at `URL` publishes (/.well-known/agent-skills/, as skillcatalog publish writes it), or of the index at URL")
	fl.StringVar(&o.label, "web-label", webskills.DefaultLabel, "the `LABEL` the host gives the website: its skills' catalog lines name it, and colliding names are qualified as LABEL:name")
	fl.BoolVar(&o.allowHTTP, "web-allow-http", false, "allow plain http to the -web-url site's own origin (a site on loopback); https is required otherwise")
}

// provider is the web provider the flags describe.
func (o *webOptions) provider() (*webskills.Provider, error) {
	return webskills.New(&webskills.Options{URL: o.url, Label: o.label, AllowHTTP: o.allowHTTP})
}
