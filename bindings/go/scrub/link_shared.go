//go:build !slicc_scrub_static

package scrub

// The shared C library, found by pkg-config (slicc_scrub.pc).

// #cgo pkg-config: slicc_scrub
import "C"
