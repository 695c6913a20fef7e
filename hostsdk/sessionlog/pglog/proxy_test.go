package pglog

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// cutProxy forwards connections to a PostgreSQL server and can lose the
// reply of one commit: once a client has sent bytes holding the armed
// marker, the proxy passes the server's answers on until the server reports
// that a transaction ended (a CommandComplete, then ReadyForQuery with
// status idle), drops that ReadyForQuery and closes both connections. The
// server has committed; the client never learns it.
type cutProxy struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	marker []byte // armed when set; cleared by the cut
	drop   bool   // drop the marked request instead of the commit's reply
	cuts   int
	conns  []net.Conn
}

func newCutProxy(tb testing.TB, target string) *cutProxy {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	go p.serve()
	tb.Cleanup(p.close)
	return p
}

// proxiedConfig returns dsn's pool configuration with connections made
// through the proxy.
func (p *cutProxy) config(tb testing.TB, dsn string) *pgxpool.Config {
	tb.Helper()
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	host, port, err := net.SplitHostPort(p.ln.Addr().String())
	if err != nil {
		tb.Fatal(err)
	}
	n, _ := strconv.Atoi(port)
	cfg.ConnConfig.Host, cfg.ConnConfig.Port = host, uint16(n)
	cfg.ConnConfig.Fallbacks = nil
	return cfg
}

// arm makes the proxy cut the connection that next sends marker, after its
// transaction commits.
func (p *cutProxy) arm(marker string) {
	p.mu.Lock()
	p.marker, p.drop = []byte(marker), false
	p.mu.Unlock()
}

// armDrop makes the proxy close the connection that next sends marker
// instead of passing those bytes on: the request never reaches the server.
func (p *cutProxy) armDrop(marker string) {
	p.mu.Lock()
	p.marker, p.drop = []byte(marker), true
	p.mu.Unlock()
}

// cutCount is how many commits the proxy hid.
func (p *cutProxy) cutCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cuts
}

func (p *cutProxy) close() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}

func (p *cutProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		var marked sync.Once
		cut := make(chan struct{})
		go p.upstream(c, s, func() { marked.Do(func() { close(cut) }) })
		go p.downstream(s, c, cut)
	}
}

// upstream copies the client's bytes to the server and calls mark once
// they have held the armed marker.
func (p *cutProxy) upstream(c, s net.Conn, mark func()) {
	defer s.Close()
	buf := make([]byte, 32<<10)
	var tail []byte
	for {
		n, err := c.Read(buf)
		if n > 0 {
			window := append(tail, buf[:n]...)
			p.mu.Lock()
			drop := false
			if p.marker != nil && bytes.Contains(window, p.marker) {
				p.marker, drop = nil, p.drop
				if drop {
					p.cuts++
				} else {
					mark()
				}
			}
			p.mu.Unlock()
			if drop {
				c.Close()
				return
			}
			if _, werr := s.Write(buf[:n]); werr != nil {
				return
			}
			tail = append(tail[:0], window[max(0, len(window)-64):]...)
		}
		if err != nil {
			return
		}
	}
}

// downstream copies the server's messages to the client; after cut it
// drops the ReadyForQuery that ends the first transaction to complete and
// closes both connections.
func (p *cutProxy) downstream(s, c net.Conn, cut <-chan struct{}) {
	defer c.Close()
	defer s.Close()
	completed := false
	hdr := make([]byte, 5)
	for {
		if _, err := io.ReadFull(s, hdr); err != nil {
			return
		}
		body := make([]byte, int(binary.BigEndian.Uint32(hdr[1:]))-4)
		if _, err := io.ReadFull(s, body); err != nil {
			return
		}
		select {
		case <-cut:
			switch {
			case hdr[0] == 'C':
				completed = true
			case hdr[0] == 'Z' && completed && len(body) == 1 && body[0] == 'I':
				p.mu.Lock()
				p.cuts++
				p.mu.Unlock()
				return
			}
		default:
		}
		if _, err := c.Write(append(hdr[:5:5], body...)); err != nil {
			return
		}
	}
}

// proxiedStore is a store on schema whose connections go through a new
// cutProxy.
func proxiedStore(tb testing.TB, dsn, schema string) (*Store, *cutProxy) {
	tb.Helper()
	direct, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	p := newCutProxy(tb, net.JoinHostPort(direct.ConnConfig.Host, strconv.Itoa(int(direct.ConnConfig.Port))))
	s, err := openConfig(context.Background(), p.config(tb, dsn), &Options{Schema: schema})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s, p
}
