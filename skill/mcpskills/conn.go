package mcpskills

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// transportFunc makes the transport for a new connection.
type transportFunc func() (mcp.Transport, error)

// conn is one live MCP client session.
type conn struct {
	cs *mcp.ClientSession
	// ext is set when the server declared the MCP Skills extension.
	ext      bool
	deadOnce sync.Once
	dead     chan struct{}
}

func (c *conn) isDead() bool {
	select {
	case <-c.dead:
		return true
	default:
		return false
	}
}

func (c *conn) markDead() { c.deadOnce.Do(func() { close(c.dead) }) }

// terminateWait is how long closing a stdio connection waits for the server
// process to exit after its stdin is closed, before signalling it.
const terminateWait = 2 * time.Second

// newTransportFunc builds transports for cfg. httpClient is shared by all
// HTTP connections of the provider.
func newTransportFunc(cfg Options, httpClient *http.Client) transportFunc {
	if len(cfg.Command) > 0 {
		return func() (mcp.Transport, error) {
			cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
			cmd.Env = append(os.Environ(), cfg.Env...)
			// Discarded unless the host routes it (Options.Stderr): it may
			// carry credentials.
			cmd.Stderr = cfg.Stderr
			// A writer that is not a file is copied to by a goroutine that
			// Wait waits for; a child of the server holding stderr open
			// must not hold Wait too.
			cmd.WaitDelay = terminateWait
			return &commandTransport{cmd: cmd}, nil
		}
	}
	return func() (mcp.Transport, error) {
		// The SDK leaves events unbounded when MaxEventSize is zero. Its
		// bound is the largest any request accepts; the client's
		// boundedBody stops an event at the request's own bound first, with
		// a clearer error.
		return &mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: httpClient, MaxEventSize: maxReadFrameBytes}, nil
	}
}

// newHTTPClient returns a client that adds the configured headers to requests
// for the endpoint's origin only, follows no redirects (a redirect could
// otherwise carry the session to another host), and bounds every message it
// receives at MaxMessageBytes.
func newHTTPClient(cfg Options) (*http.Client, *http.Transport) {
	if cfg.URL == "" {
		return nil, nil
	}
	base := http.DefaultTransport.(*http.Transport).Clone()
	u, _ := url.Parse(cfg.URL) // validated by normalize
	h := make(http.Header, len(cfg.Headers))
	for k, v := range cfg.Headers {
		h.Set(k, v)
	}
	return &http.Client{
		Transport: boundedTransport{base: &headerTransport{base: base, scheme: u.Scheme, host: u.Host, headers: h}},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}, base
}

type headerTransport struct {
	base         http.RoundTripper
	scheme, host string
	headers      http.Header
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 && req.URL.Scheme == t.scheme && strings.EqualFold(req.URL.Host, t.host) {
		req = req.Clone(req.Context())
		for k, vs := range t.headers {
			req.Header[k] = vs
		}
	}
	return t.base.RoundTrip(req)
}

// getConn returns the live connection, connecting if there is none. fresh
// reports whether this call made it.
func (p *Provider) getConn(ctx context.Context) (c *conn, fresh bool, err error) {
	// Only one caller connects at a time; the others wait for its result.
	select {
	case p.connecting <- struct{}{}:
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	defer func() { <-p.connecting }()

	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, false, ErrClosed
	}
	if c := p.conn; c != nil && !c.isDead() {
		p.mu.Unlock()
		return c, false, nil
	}
	p.conn = nil
	p.mu.Unlock()

	if p.httpTransport != nil {
		// Keep-alive connections pooled for an earlier session may lead to a
		// server that has since gone away; start clean.
		p.httpTransport.CloseIdleConnections()
	}
	t, err := p.transport()
	if err != nil {
		return nil, false, err
	}
	cctx, cancel := context.WithTimeout(ctx, p.cfg.RequestTimeout)
	defer cancel()
	cctx, lim, stop := withMessageLimit(cctx)
	defer stop()
	cs, err := p.client.Connect(cctx, t, nil)
	if lim.exceeded() {
		err = errMessageTooLarge
		if cs != nil {
			_ = cs.Close()
		}
	}
	if err != nil {
		return nil, false, fmt.Errorf("connecting to %s: %w", p.cfg.endpointLabel(), err)
	}
	c = &conn{cs: cs, ext: declaresExtension(cs.InitializeResult().Capabilities), dead: make(chan struct{})}

	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		_ = cs.Close()
		return nil, false, ErrClosed
	}
	p.conn = c
	// Added under the lock, before Close can start waiting.
	p.wg.Add(1)
	p.mu.Unlock()

	go func() {
		defer p.wg.Done()
		_ = cs.Wait()
		c.markDead()
		// Release what the connection holds (and reap a stdio server that
		// exited); Close is idempotent.
		_ = cs.Close()
	}()

	// Ask to hear when the index changes, if the server serves one and
	// offers resource subscriptions. Best effort: list_changed
	// notifications and IndexMaxAge cover servers that do not.
	if caps := cs.InitializeResult().Capabilities; !c.ext && caps != nil && caps.Resources != nil && caps.Resources.Subscribe {
		_ = cs.Subscribe(cctx, &mcp.SubscribeParams{URI: IndexURI})
	}
	return c, true, nil
}

// dropConn closes c if it is still the provider's connection, so that the
// next call reconnects.
func (p *Provider) dropConn(c *conn) {
	p.mu.Lock()
	if p.closed {
		// Close closes the current connection; earlier ones were closed
		// when they were dropped.
		p.mu.Unlock()
		return
	}
	if p.conn == c {
		p.conn = nil
	}
	p.wg.Add(1)
	p.mu.Unlock()
	c.markDead()
	// Closing a stdio connection waits for the process; do it off the
	// caller's path.
	go func() {
		defer p.wg.Done()
		_ = c.cs.Close()
	}()
}

// connectionBroken reports whether err from a request on a connection means
// the connection should be replaced. Errors the server answered with (a
// JSON-RPC error such as "resource not found") and the caller's own
// cancellation leave the connection in place; a request timeout does not, as
// the server may be stuck.
func connectionBroken(callerCtx context.Context, err error) bool {
	if callerCtx.Err() != nil {
		return false
	}
	if errors.Is(err, mcp.ErrConnectionClosed) {
		return true
	}
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		// The SDK reports its own transport failures as JSON-RPC errors with
		// these codes (client closing, server closing, rejected by transport);
		// any other code is the server's answer.
		return sdkTransportCode(werr.Code)
	}
	return true
}

// call runs f on the live connection, bounded by RequestTimeout and by
// MaxMessageBytes per response. If a connection that was already open
// turns out to be broken, it reconnects and tries once more.
func (p *Provider) call(ctx context.Context, f func(context.Context, *conn) error) error {
	rctx, cancel := context.WithTimeout(ctx, p.cfg.RequestTimeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		c, fresh, err := p.getConn(rctx)
		if err != nil {
			return err
		}
		if made, _ := ctx.Value(freshConnKey{}).(*conn); made == c {
			fresh = true
		}
		mctx, lim, stop := withMessageLimit(rctx)
		err = f(mctx, c)
		stop()
		if lim.exceeded() {
			// Retrying would only read as much again. The connection may
			// hold the rest of the cut-off stream: replace it.
			p.dropConn(c)
			return lim.err()
		}
		if err == nil || !connectionBroken(ctx, err) {
			return err
		}
		p.dropConn(c)
		if fresh || attempt > 0 || rctx.Err() != nil {
			return err
		}
	}
}

// fetch reads uri from the server (see call).
func (p *Provider) fetch(ctx context.Context, uri string) (*Content, error) {
	var res *mcp.ReadResourceResult
	err := p.call(ctx, func(ctx context.Context, c *conn) error {
		var err error
		res, err = c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		return err
	})
	if err != nil {
		return nil, err
	}
	return pickContent(uri, res)
}

// pickContent selects the contents for uri from a read result: the single
// item, or the item whose URI is uri.
func pickContent(uri string, res *mcp.ReadResourceResult) (*Content, error) {
	var rc *mcp.ResourceContents
	switch {
	case res == nil || len(res.Contents) == 0:
		return nil, errors.New("the server returned no contents")
	case len(res.Contents) == 1:
		rc = res.Contents[0]
	default:
		for _, c := range res.Contents {
			if c != nil && c.URI == uri {
				rc = c
				break
			}
		}
	}
	if rc == nil {
		return nil, errors.New("the server returned no contents for the requested URI")
	}
	c := &Content{URI: uri, MIMEType: clip(rc.MIMEType, 128), Text: rc.Text}
	if rc.Blob != nil {
		c.Blob = rc.Blob
		c.Text = ""
	}
	return c, nil
}
