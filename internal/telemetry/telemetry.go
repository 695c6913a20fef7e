// Package telemetry holds what the host SDK's packages share about
// OpenTelemetry instruments: the bucket bounds of their latency
// histograms.
package telemetry

// DurationBuckets returns the explicit bucket bounds, in seconds, of the
// SDK's latency histograms: from a cached answer (100 µs) to a slow remote
// provider (30 s). OpenTelemetry's default bounds are meant for
// milliseconds and would put every call in the first bucket.
func DurationBuckets() []float64 {
	return []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}
}
