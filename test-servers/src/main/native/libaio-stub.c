/*
 * Stand-in for libaio.so.1 when the system has none (a fresh Debian lacks the libaio1 package). The MySQL server
 * from the test artifacts links against libaio, so it cannot even start without a library of that name; with this
 * one it starts, and it is run with innodb_use_native_aio=0, so InnoDB does its own asynchronous I/O and never calls
 * these functions. Should something call them, each fails as a kernel without AIO support would, and InnoDB falls
 * back to its own I/O threads.
 *
 * Built by build.sh into ../resources/io/fsindex/testservers/stubs/libaio.so.1; libaio.map gives the symbols the
 * version names (LIBAIO_0.1, LIBAIO_0.4) the server was linked against.
 */
#include <errno.h>

struct io_context;
struct iocb;
struct io_event;
struct timespec;

int io_setup(int maxevents, struct io_context **ctxp) { (void) maxevents; (void) ctxp; return -ENOSYS; }
int io_destroy(struct io_context *ctx) { (void) ctx; return -ENOSYS; }
int io_submit(struct io_context *ctx, long nr, struct iocb **ios) { (void) ctx; (void) nr; (void) ios; return -ENOSYS; }
int io_cancel(struct io_context *ctx, struct iocb *iocb, struct io_event *evt) {
    (void) ctx; (void) iocb; (void) evt; return -ENOSYS;
}
int io_getevents(struct io_context *ctx, long min_nr, long nr, struct io_event *events, struct timespec *timeout) {
    (void) ctx; (void) min_nr; (void) nr; (void) events; (void) timeout; return -ENOSYS;
}
