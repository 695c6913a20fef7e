// Package skilltest helps test code around skills.Provider: RunProvider is
// the conformance suite every provider passes, and Provider is a scriptable
// fake for testing what consumes providers.
//
// # Conformance suite
//
// RunProvider drives a provider through a Harness: the provider plus
// functions that add, change and remove skills in its source (a directory,
// a server) and, optionally, make a call block inside the source and
// report per-session state. It checks, each in a subtest:
//
//   - ListLoadAgree: every listed skill loads, found, with the listed name,
//     description, invocation policy and provider label (fields the
//     definition leaves empty are taken from the listing, as the registry
//     does); an unlisted valid name is not found; an invalid name is not
//     found, or fails without a definition.
//   - Deterministic: listing again, or for another session, with no change
//     in between gives the same skills in the same order.
//   - Cancellation: List and Load with a cancelled context fail with
//     context.Canceled; with Harness.Block, cancelling a call blocked in
//     the source makes it return context.Canceled.
//   - Invalidation: after a skill is added, changed or removed in the
//     source, a provider that is not a skills.Invalidator reflects it in
//     the next List; an Invalidator calls its invalidate function and a
//     List after that call reflects the change.
//   - EndSession: for a skills.SessionEnder, an ended session and other
//     sessions are still served with the same skills, and (with
//     Harness.SessionState) only the ended session's state is released.
//   - Concurrent: many goroutines list and load while the source changes
//     and sessions end; run it with -race.
//
// A provider's test supplies a factory that builds a fresh provider over a
// fresh source for each subtest:
//
//	func TestConformance(t *testing.T) {
//		skilltest.RunProvider(t, func(t *testing.T) skilltest.Harness {
//			root := t.TempDir()
//			p := newDirProvider(t, root) // closed by t.Cleanup
//			return skilltest.Harness{
//				Provider: p,
//				SetSkill: func(t *testing.T, name, description string) {
//					writeSkillFile(t, root, name, description)
//				},
//				RemoveSkill: func(t *testing.T, name string) {
//					if err := os.RemoveAll(filepath.Join(root, name)); err != nil {
//						t.Fatal(err)
//					}
//				},
//			}
//		})
//	}
//
// The suite waits on providers without time limits of its own; it fails a
// provider that never answers shortly before the test binary's deadline.
//
// # Fake provider
//
// Provider's skills are set at run time, List can be complete, incomplete,
// failing or hang until cancelled, and each skill can fail to load, vanish
// between List and Load, or load a definition that differs from its
// listing. It counts List calls, records the names loaded, reports hanging
// calls on channels, and its As method chooses whether it is also a
// skills.Invalidator or a skills.SessionEnder:
//
//	p := skilltest.New(&skilltest.Options{Label: "remote"})
//	p.SetSkills(skilltest.Skill{
//		Summary: skill.Summary{Name: "deploy", Description: "Deploy.", Invocation: skill.DefaultPolicy()},
//		Content: "# Deploy",
//	})
//	reg.AddProvider("global", p.As(skilltest.Invalidator), nil)
//	p.SetHang(skilltest.OpList, true) // the next snapshot blocks until cancelled
//
// # Registries
//
// NewRegistry is [skills.NewRegistry] with the defaults for a test: it
// fails the test instead of returning an error.
package skilltest
