package wire

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// The real plugin binary's server, with its own options, against trace
// metadata over its limit or outside what a Go client sends.

// startPluginBinary builds the plugin binary, starts it through go-plugin
// in plaintext (so a raw HTTP/2 connection can reach its server too), and
// returns its service and its server's address.
func startPluginBinary(t *testing.T) (contract.Service, net.Addr) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "skillcatalog-plugin")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/skillcatalog-plugin").CombinedOutput(); err != nil {
		t.Fatalf("go build the plugin: %v\n%s", err, out)
	}
	cfg := ClientConfig(exec.Command(bin))
	cfg.AutoMTLS = false
	cfg.Logger = hclog.NewNullLogger()
	client := goplugin.NewClient(cfg)
	t.Cleanup(client.Kill)
	rpc, err := client.Client()
	if err != nil {
		t.Fatalf("start the plugin: %v", err)
	}
	svc, err := Dispense(rpc)
	if err != nil {
		t.Fatal(err)
	}
	return svc, client.ReattachConfig().Addr
}

// gatedHost holds the Snapshot callback of session "held" until release
// is closed, saying when it has started.
type gatedHost struct {
	*testHost
	once    sync.Once
	entered chan struct{}
	release chan struct{}
}

func (h *gatedHost) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	if req.SessionID == "held" {
		h.once.Do(func() { close(h.entered) })
		<-h.release
	}
	return h.testHost.Snapshot(ctx, req)
}

// TestOversizedTraceMetadataIsRefusedAlone: a call whose metadata is over
// the plugin's bound fails, naming the bound, and nothing else does: a
// step of another session in flight on the same connection completes as
// it would have, and the next call is answered. (gRPC's own default let a
// 17 MiB header close the connection, failing every call on it.)
func TestOversizedTraceMetadataIsRefusedAlone(t *testing.T) {
	svc, _ := startPluginBinary(t)
	host := &gatedHost{testHost: newTestHost(), entered: make(chan struct{}), release: make(chan struct{})}
	m := mountBound(t, svc, host, "", "tooldef-1")
	step := func(ctx context.Context, session string) (contract.StepResponse, error) {
		return svc.PreStep(ctx, contract.StepRequest{MountID: m.MountID, SessionID: session, SkillToolIdentity: "tooldef-1", Head: &contract.SessionHead{}})
	}
	want, err := step(context.Background(), "reference")
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan error, 1)
	go func() {
		resp, err := step(context.Background(), "held")
		if err == nil && stepShape(resp) != stepShape(want) {
			err = fmt.Errorf("answered %s, want %s", stepShape(resp), stepShape(want))
		}
		held <- err
	}()
	<-host.entered
	for _, size := range []int{maxHeaderListBytes, 1 << 20, 17 << 20} {
		ctx := metadata.AppendToOutgoingContext(context.Background(), "traceparent", goodTraceparent, "tracestate", "k="+strings.Repeat("v", size))
		if _, err := step(ctx, fmt.Sprintf("big-%d", size)); err == nil || !strings.Contains(err.Error(), fmt.Sprint(maxHeaderListBytes)) {
			t.Errorf("a %d-byte tracestate: %v, want a refusal naming the bound of %d bytes", size, err, maxHeaderListBytes)
		}
	}
	close(host.release)
	if err := <-held; err != nil {
		t.Errorf("the step in flight on the same connection: %v", err)
	}
	if resp, err := step(context.Background(), "after"); err != nil || stepShape(resp) != stepShape(want) {
		t.Errorf("the next step: %v, %v", resp, err)
	}
}

// TestTraceMetadataAGoClientWouldNotSend: header values a Go client
// refuses to send, as another host's gRPC library might send them, reach
// the real plugin's server over a raw HTTP/2 connection: bytes outside
// ASCII are ignored (the step is answered), control characters and a
// value over the bound are refused; the plugin serves on either way.
func TestTraceMetadataAGoClientWouldNotSend(t *testing.T) {
	svc, addr := startPluginBinary(t)
	host := newTestHost()
	m := mountBound(t, svc, host, "", "tooldef-1")
	req := func(session string) *pb.PreStepRequest {
		return &pb.PreStepRequest{MountId: m.MountID, SessionId: session, SkillToolIdentity: "tooldef-1", SessionHead: &pb.SessionHead{}}
	}
	if status, refused := rawPreStep(t, addr, nil, req("raw-plain")); status != "0" {
		t.Fatalf("a plain raw PreStep: status %q (%s), want 0: the raw client is broken", status, refused)
	}
	for _, tt := range []struct {
		name     string
		extra    [][2]string
		answered bool
	}{
		{"bytes outside ASCII", [][2]string{{"traceparent", "00-\xff\xfe" + goodTraceparent[5:]}, {"tracestate", "k=\xc3\xa9"}}, true},
		{"a control character", [][2]string{{"traceparent", goodTraceparent[:10] + "\x01" + goodTraceparent[11:]}}, false},
		{"a NUL in tracestate", [][2]string{{"traceparent", goodTraceparent}, {"tracestate", "k=\x00"}}, false},
		{"a value over the bound", [][2]string{{"traceparent", goodTraceparent}, {"tracestate", "k=" + strings.Repeat("v", 2*maxHeaderListBytes)}}, false},
		{"many fields over the bound", manyFields(200, 512), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, refused := rawPreStep(t, addr, tt.extra, req("raw-"+tt.name))
			switch {
			case tt.answered && status != "0":
				t.Errorf("status %q (%s), want the step answered", status, refused)
			case !tt.answered && status != "":
				t.Errorf("answered with status %q, want the call refused", status)
			default:
				t.Logf("status %q %s", status, refused)
			}
			resp, err := svc.PreStep(context.Background(), contract.StepRequest{MountID: m.MountID, SessionID: "after-" + tt.name, SkillToolIdentity: "tooldef-1", Head: &contract.SessionHead{}})
			if err != nil || resp.Outcome != contract.OutcomeInitial {
				t.Errorf("the plugin after it: %+v, %v", resp, err)
			}
		})
	}
}

// manyFields is n header fields of size bytes each: small alone, over the
// bound together.
func manyFields(n, size int) [][2]string {
	out := make([][2]string, n)
	for i := range out {
		out[i] = [2]string{fmt.Sprintf("x-junk-%d", i), strings.Repeat("j", size)}
	}
	return out
}

// rawPreStep sends one PreStep on an HTTP/2 connection of its own, with
// the extra header fields as they are, and returns its grpc-status, or ""
// and why there was none (the stream reset, the connection ended).
func rawPreStep(t *testing.T, addr net.Addr, extra [][2]string, req *pb.PreStepRequest) (status, refused string) {
	t.Helper()
	conn, err := net.Dial(addr.Network(), addr.String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	fr := http2.NewFramer(conn, conn)
	fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	fields := append([][2]string{{":method", "POST"}, {":scheme", "http"}, {":path", "/skillcatalog.v1.PluginService/PreStep"},
		{":authority", "localhost"}, {"content-type", "application/grpc"}, {"te", "trailers"}}, extra...)
	for _, f := range fields {
		_ = enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	body, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	msg := binary.BigEndian.AppendUint32([]byte{0}, uint32(len(body)))
	if _, err := conn.Write([]byte(http2.ClientPreface)); err != nil {
		t.Fatal(err)
	}
	if err := fr.WriteSettings(); err != nil {
		t.Fatal(err)
	}
	if err := writeHeaderBlock(fr, block.Bytes()); err != nil {
		return "", "writing the headers: " + err.Error()
	}
	if err := fr.WriteData(1, true, append(msg, body...)); err != nil {
		return "", "writing the request: " + err.Error()
	}
	return readStatus(fr)
}

// writeHeaderBlock writes block on stream 1 as HEADERS and CONTINUATION
// frames of the default maximum frame size.
func writeHeaderBlock(fr *http2.Framer, block []byte) error {
	const max = 16384
	first := block[:min(len(block), max)]
	block = block[len(first):]
	if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: first, EndHeaders: len(block) == 0}); err != nil {
		return err
	}
	for len(block) > 0 {
		next := block[:min(len(block), max)]
		block = block[len(next):]
		if err := fr.WriteContinuation(1, len(block) == 0, next); err != nil {
			return err
		}
	}
	return nil
}

// readStatus reads frames until stream 1 ends, answering the server's
// settings and pings.
func readStatus(fr *http2.Framer) (status, refused string) {
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return "", "connection ended: " + err.Error()
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				_ = fr.WriteSettingsAck()
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				_ = fr.WritePing(true, f.Data)
			}
		case *http2.RSTStreamFrame:
			return "", "stream reset: " + f.ErrCode.String()
		case *http2.GoAwayFrame:
			return "", "connection closed: " + f.ErrCode.String()
		case *http2.MetaHeadersFrame:
			for _, hf := range f.Fields {
				if hf.Name == "grpc-status" {
					return hf.Value, ""
				}
			}
		}
	}
}
