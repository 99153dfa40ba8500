//go:build !slicc_scrub_static

package scrub

// linkTags are the build tags this test binary was built with that choose
// how the C library is linked.
const linkTags = ""
