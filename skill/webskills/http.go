package webskills

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// userAgent names the provider to the sites it reads.
const userAgent = "skillcatalog-webskills/1"

// fetcher makes the provider's HTTP requests: GET only, bounded in time,
// redirects and size, never to a scheme or origin the configuration does
// not allow.
type fetcher struct {
	client    *http.Client
	transport *http.Transport
	timeout   time.Duration
	// httpOrigin is the one scheme://host:port plain http may reach, or "".
	httpOrigin string
}

func newFetcher(cfg Options, site *url.URL) *fetcher {
	dialer := &net.Dialer{Timeout: cfg.RequestTimeout, KeepAlive: 30 * time.Second}
	t := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   cfg.RequestTimeout,
		ResponseHeaderTimeout: cfg.RequestTimeout,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConnsPerHost:   4,
		// The bytes hashed must be the bytes served: no transparent
		// decoding of a Content-Encoding, so no gzip bomb either.
		DisableCompression: true,
		ForceAttemptHTTP2:  true,
	}
	f := &fetcher{transport: t, timeout: cfg.RequestTimeout}
	if cfg.AllowHTTP && site.Scheme == "http" {
		f.httpOrigin = origin(site)
	}
	max := cfg.MaxRedirects
	f.client = &http.Client{
		Transport: t,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > max {
				return fmt.Errorf("%w: more than %d redirects", errRedirect, max)
			}
			if req.URL.Scheme != via[len(via)-1].URL.Scheme {
				return fmt.Errorf("%w: from %s to %s, another scheme", errRedirect, via[len(via)-1].URL.Scheme, req.URL.Scheme)
			}
			return f.allowed(req.URL)
		},
	}
	return f
}

// errRedirect is a redirect the fetcher refuses to follow.
var errRedirect = errors.New("redirect refused")

// errNotAllowed is a URL outside what the configuration allows.
var errNotAllowed = errors.New("URL not allowed")

// origin is u's scheme://host:port, the port spelled out.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// allowed says whether the fetcher may request u: https anywhere, plain
// http only at the allowed origin, nothing with userinfo.
func (f *fetcher) allowed(u *url.URL) error {
	switch {
	case u.User != nil:
		return fmt.Errorf("%w: it carries userinfo", errNotAllowed)
	case u.Scheme == "https" && u.Host != "":
		return nil
	case u.Scheme == "http" && f.httpOrigin != "" && origin(u) == f.httpOrigin:
		return nil
	case u.Scheme == "http":
		return fmt.Errorf("%w: plain http to %s (https is required)", errNotAllowed, u.Host)
	}
	return fmt.Errorf("%w: scheme %q", errNotAllowed, u.Scheme)
}

// validators are the index response's ETag and Last-Modified, sent back
// as If-None-Match and If-Modified-Since.
type validators struct {
	etag, lastModified string
}

// response is a fetched body and what its headers say.
type response struct {
	body        []byte
	url         *url.URL // after redirects
	contentType string
	validators  validators
	// notModified: the server answered 304 to a conditional request.
	notModified bool
	// maxAge is the freshness Cache-Control gives (Age subtracted);
	// hasMaxAge is false when it says nothing.
	maxAge    time.Duration
	hasMaxAge bool
}

// errTooLarge is a body over the bound of what was being read.
var errTooLarge = errors.New("response too large")

// get reads u whole, at most limit bytes, under the request timeout. With
// cond, the request is conditional and a 304 comes back as notModified.
// Any status but 200 (and that 304) is an error naming the status only: a
// site's error page never reaches an error text.
func (f *fetcher) get(ctx context.Context, u *url.URL, limit int64, cond *validators) (*response, error) {
	if err := f.allowed(u); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("building the request: %w", err)
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept-Encoding", "identity")
	if cond != nil && cond.etag != "" {
		req.Header.Set("If-None-Match", cond.etag)
	}
	if cond != nil && cond.lastModified != "" {
		req.Header.Set("If-Modified-Since", cond.lastModified)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, requestError(ctx, err)
	}
	defer resp.Body.Close()
	r := &response{url: resp.Request.URL, contentType: resp.Header.Get("Content-Type")}
	r.validators = validators{etag: resp.Header.Get("ETag"), lastModified: resp.Header.Get("Last-Modified")}
	r.maxAge, r.hasMaxAge = freshness(resp.Header)
	switch {
	case resp.StatusCode == http.StatusNotModified && cond != nil:
		r.notModified = true
		return r, nil
	case resp.StatusCode != http.StatusOK:
		return nil, &statusError{code: resp.StatusCode}
	case resp.ContentLength > limit:
		return nil, fmt.Errorf("%w: %d bytes, more than the %d bytes allowed", errTooLarge, resp.ContentLength, limit)
	}
	r.body, err = io.ReadAll(io.LimitReader(resp.Body, limit+1))
	switch {
	case err != nil:
		return nil, requestError(ctx, fmt.Errorf("reading the body: %w", err))
	case int64(len(r.body)) > limit:
		return nil, fmt.Errorf("%w: more than the %d bytes allowed", errTooLarge, limit)
	}
	return r, nil
}

// requestError names a timeout as such: the request, headers and body
// together took longer than the request timeout.
func requestError(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", context.DeadlineExceeded, errTimedOut)
	}
	return err
}

// errTimedOut says that the request timeout passed.
var errTimedOut = errors.New("no complete response within the request timeout")

// statusError is a response with a status the fetcher does not use.
type statusError struct{ code int }

func (e *statusError) Error() string { return "HTTP status " + strconv.Itoa(e.code) }

// freshness reads how long a response may be used from Cache-Control:
// max-age (less the Age header), or zero for no-cache and no-store. ok is
// false when Cache-Control says neither.
func freshness(h http.Header) (time.Duration, bool) {
	var maxAge time.Duration
	found := false
	for _, line := range h.Values("Cache-Control") {
		for _, d := range strings.Split(line, ",") {
			name, value, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(name) {
			case "no-cache", "no-store":
				return 0, true
			case "max-age":
				secs, err := strconv.ParseInt(strings.Trim(value, `"`), 10, 64)
				if err == nil && secs >= 0 && !found {
					maxAge, found = capSeconds(secs), true
				}
			}
		}
	}
	if !found {
		return 0, false
	}
	if age, err := strconv.ParseInt(h.Get("Age"), 10, 64); err == nil && age > 0 {
		maxAge = max(maxAge-capSeconds(age), 0)
	}
	return maxAge, true
}

// capSeconds turns seconds into a duration no longer than MaxRefresh.
func capSeconds(secs int64) time.Duration {
	if secs > int64(MaxRefresh/time.Second) {
		return MaxRefresh
	}
	return time.Duration(secs) * time.Second
}
