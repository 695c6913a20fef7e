package skills

import (
	"context"
	"errors"
	"time"
)

// A best-effort provider costs a snapshot at most a share of the caller's
// time; its listing goes on after the snapshot stopped waiting for it.
const (
	// BestEffortShare: a snapshot waits for a best-effort provider's
	// listing at most 1/BestEffortShare of the time that was left before
	// its context's deadline when the listing started (a quarter: 7.5 s
	// of a 30 s step).
	BestEffortShare = 4
	// DefaultBestEffortWait is that wait when the context has no deadline.
	DefaultBestEffortWait = 10 * time.Second
	// bestEffortListBound bounds a listing that goes on in the background
	// when the context it started under had no deadline; with one, the
	// listing keeps that deadline.
	bestEffortListBound = time.Minute
)

// ErrStillListing is the error a best-effort provider is reported with
// (Snapshot.Degraded) when it has not answered within its share of the
// caller's time (BestEffortShare, DefaultBestEffortWait).
var ErrStillListing = errors.New("skills: no listing within its share of the caller's time; the listing goes on in the background")

// listFlight is one best-effort listing in progress, shared by every
// snapshot that asks the provider for the same session and working
// directory while it runs.
type listFlight struct {
	started time.Time
	done    chan struct{}
	res     listResult // set before done is closed
}

// startList returns the best-effort provider's listing in flight for req,
// starting one if there is none. The listing runs detached from ctx's
// cancellation (its values, such as the caller's span, are kept) until
// ctx's deadline, or for bestEffortListBound when ctx has none: a snapshot
// that stops waiting for it does not end it, and a complete answer, late
// or not, becomes the provider's last-good listing for req, so a later
// snapshot has it even if the provider is slow again.
func (e *providerEntry) startList(ctx context.Context, req ListRequest) *listFlight {
	g := e.good
	key := listingKey(req)
	g.mu.Lock()
	defer g.mu.Unlock()
	if f, ok := g.flights[key]; ok {
		return f
	}
	f := &listFlight{started: time.Now(), done: make(chan struct{})}
	if g.flights == nil {
		g.flights = make(map[string]*listFlight)
	}
	g.flights[key] = f
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = f.started.Add(bestEffortListBound)
	}
	bg, cancel := context.WithDeadline(context.WithoutCancel(ctx), deadline)
	go func() {
		defer cancel()
		obs, err := e.list(bg, req)
		if err == nil && obs.Complete {
			g.put(req, obs.Skills)
		}
		g.mu.Lock()
		f.res = listResult{obs: obs, err: err}
		delete(g.flights, key)
		g.mu.Unlock()
		close(f.done)
	}()
	return f
}

// wait returns the flight's result, or ErrStillListing as the provider's
// error once wait has passed since the flight started, or ctx's error when
// ctx ends first.
func (f *listFlight) wait(ctx context.Context, wait time.Duration) (listResult, error) {
	select {
	case <-f.done:
		return f.res, nil
	default:
	}
	timer := time.NewTimer(time.Until(f.started.Add(wait)))
	defer timer.Stop()
	select {
	case <-f.done:
		return f.res, nil
	case <-timer.C:
		return listResult{err: ErrStillListing}, nil
	case <-ctx.Done():
		return listResult{}, ctx.Err()
	}
}

// bestEffortWait is how long a snapshot waits for a best-effort listing:
// its share of the time left before ctx's deadline, or
// DefaultBestEffortWait.
func bestEffortWait(ctx context.Context, now time.Time) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return max(d.Sub(now), 0) / BestEffortShare
	}
	return DefaultBestEffortWait
}
