package hostsdk

// checkMessagesUTF8 refuses messages the runtime passed in whose text is
// not valid UTF-8, with a *HostError naming the first such message and
// its field (errors.Is(err, skill.ErrInvalidUTF8)). The plugin protocol's
// strings are UTF-8 and gRPC refuses to send any other, so such a message
// is refused where the host takes it, as a SKILL.md whose frontmatter is
// not UTF-8 is, not repaired: the runtime learns of its own bad text
// instead of the plugin being blamed for it.
func checkMessagesUTF8(msgs []Message) error {
	for i := range msgs {
		if err := msgs[i].CheckUTF8(); err != nil {
			return &HostError{Err: err}
		}
	}
	return nil
}
