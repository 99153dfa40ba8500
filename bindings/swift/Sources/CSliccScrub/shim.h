/* The installed header, found through pkg-config's Cflags. */
#include <slicc_scrub.h>

#include <stddef.h>

/* Zeros `len` bytes at `bytes` through a volatile pointer, so that no
 * compiler drops the stores as dead before the memory is freed: the Swift
 * binding wipes its C copies of names, values and placeholders with it. */
static inline void slicc_scrub_swift_wipe(void *bytes, size_t len) {
    volatile unsigned char *at = (volatile unsigned char *)bytes;
    while (len--) {
        *at++ = 0;
    }
}
