package wire

import "math"

// The convert_*.go files convert every protocol message to the Go types of
// package contract and back, one file per area (messages, step, skill,
// host, tools, mount), each with its round-trip test beside it; this one
// holds the numeric clamps they share. Conversions from the wire accept nil
// and absent fields (proto3 has no required fields) and produce the zero Go
// value for them; only values with no Go meaning (an unknown outcome, an
// empty edit) are errors.

// toUint64 clamps a negative count to 0.
func toUint64(n int64) uint64 {
	if n < 0 {
		return 0
	}
	return uint64(n)
}

// toInt64 saturates what does not fit.
func toInt64(n uint64) int64 {
	if n > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(n)
}

// toUint32 clamps an int index or count into the protocol's uint32.
func toUint32(n int) uint32 {
	switch {
	case n < 0:
		return 0
	case uint64(n) > math.MaxUint32:
		return math.MaxUint32
	}
	return uint32(n)
}
