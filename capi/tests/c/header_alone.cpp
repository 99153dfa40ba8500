// header_alone.c compiled as C++17: see there.
#include "header_alone.c"
