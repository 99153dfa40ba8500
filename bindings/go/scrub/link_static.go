//go:build slicc_scrub_static

package scrub

// The static C library, found by pkg-config (slicc_scrub-static.pc): no
// run-time dependency on libslicc_scrub.

// #cgo pkg-config: slicc_scrub-static
import "C"
