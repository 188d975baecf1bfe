/*
 * Stand-in for libnuma.so.1 when the system has none (a fresh Debian lacks the libnuma1 package). The MySQL server
 * from the test artifacts links against libnuma, so it cannot even start without a library of that name. This one
 * says NUMA is not available (numa_available() == -1), as the real library does on a machine without NUMA support,
 * so the server never asks for NUMA placement; the other functions fail or do nothing should they be called anyway.
 *
 * Built by build.sh into ../resources/io/fsindex/testservers/stubs/libnuma.so.1; libnuma.map gives the symbols the
 * version names (libnuma_1.1, libnuma_1.2) the server was linked against.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

struct bitmask;

int numa_available(void) { return -1; }
void *numa_alloc_local(size_t size) { return malloc(size); }
void numa_free(void *mem, size_t size) { (void) size; free(mem); }
long mbind(void *start, unsigned long len, int mode, const unsigned long *nodemask, unsigned long maxnode,
           unsigned flags) {
    (void) start; (void) len; (void) mode; (void) nodemask; (void) maxnode; (void) flags;
    errno = ENOSYS;
    return -1;
}
long set_mempolicy(int mode, const unsigned long *nodemask, unsigned long maxnode) {
    (void) mode; (void) nodemask; (void) maxnode;
    errno = ENOSYS;
    return -1;
}
struct bitmask *numa_get_mems_allowed(void) { return NULL; }
void numa_bitmask_free(struct bitmask *bmp) { (void) bmp; }
