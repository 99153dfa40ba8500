/* The header first and alone: it must bring every include it needs and
 * compile without a warning as C99 and as C++17 (header_alone.cpp), with
 * -Wall -Wextra -Werror -pedantic. Built by tests/header.rs and by CMake. */
#include "slicc_scrub.h"

int slicc_scrub_use_header(void);

int slicc_scrub_use_header(void) {
    scrub_options options = SCRUB_OPTIONS_INIT;
    scrub_status status = SCRUB_STATUS_OK;
    scrub_secret secret = {"NAME", NULL, 0, NULL, 0};
    scrub_hit hit;
    hit.form = SCRUB_FORM_RAW;
    hit.count = 0;
    (void)hit;
    (void)secret;
    return (int)options.version + (int)status + (int)SCRUB_FRAGMENT + (int)SCRUB_IDLE_MS;
}
