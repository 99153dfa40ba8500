/* The installed header, found through pkg-config's Cflags. */
#include <slicc_scrub.h>
