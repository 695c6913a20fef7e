package wire

import (
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// invalidText explains a call that failed before it was sent because a
// string of its request is not valid UTF-8, which gRPC refuses to marshal:
// the host put the text there, so the error matches contract.ErrHostFailed
// and skill.ErrInvalidUTF8, and names the message (msgs are the request's
// proposed messages) or else the field. It returns nil when every string
// of in is valid: the call failed for another reason. It is only called
// on a failure, so a call that succeeds pays nothing for it.
func invalidText(what string, in proto.Message, msgs []contract.Message) error {
	for _, m := range msgs {
		if err := m.CheckUTF8(); err != nil {
			return contract.HostFailed(fmt.Errorf("%s: %w", what, err))
		}
	}
	if path, text := invalidUTF8Path(in.ProtoReflect()); path != "" {
		return contract.HostFailed(fmt.Errorf("%s: %w", what, skill.CheckUTF8("field "+path, text)))
	}
	return nil
}

// invalidUTF8Path returns the path of the first string field of m, at any
// depth, that is not valid UTF-8 ("downstream.enter.messages[0].id"), and
// its text; "" when there is none.
func invalidUTF8Path(m protoreflect.Message) (path, text string) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList():
			l := v.List()
			for i := 0; i < l.Len() && path == ""; i++ {
				if below, t, bad := invalidUTF8Value(fd, l.Get(i)); bad {
					text = t
					path = fmt.Sprintf("%s[%d]%s", fd.Name(), i, below)
				}
			}
		case fd.IsMap():
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				key := k.Value()
				if s, ok := key.Interface().(string); ok && !utf8.ValidString(s) {
					path, text = string(fd.Name())+" (a key)", s
				} else if below, t, bad := invalidUTF8Value(fd.MapValue(), mv); bad {
					text = t
					path = fmt.Sprintf("%s[%v]%s", fd.Name(), key.Interface(), below)
				}
				return path == ""
			})
		default:
			if below, t, bad := invalidUTF8Value(fd, v); bad {
				path, text = string(fd.Name())+below, t
			}
		}
		return path == ""
	})
	return path, text
}

// invalidUTF8Value reports whether v, a value of field fd, is or holds a
// string that is not valid UTF-8: the path below v to it, and its text.
func invalidUTF8Value(fd protoreflect.FieldDescriptor, v protoreflect.Value) (below, text string, bad bool) {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return "", v.String(), !utf8.ValidString(v.String())
	case protoreflect.MessageKind, protoreflect.GroupKind:
		if below, text := invalidUTF8Path(v.Message()); below != "" {
			return "." + below, text, true
		}
	}
	return "", "", false
}
