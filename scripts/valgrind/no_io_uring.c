/* Preloaded into iree-run-module by scripts/valgrind-iree.sh: io_uring_setup
 * fails with EPERM, as under a security policy that blocks io_uring, so
 * IREE's proactor takes its POSIX path. valgrind serializes threads and
 * does not release its lock while a thread waits in io_uring_enter, so an
 * io_uring proactor deadlocks every run under it. Nothing else changes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>

long syscall(long number, ...) {
  va_list ap;
  va_start(ap, number);
  long a[6];
  for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
  va_end(ap);
  if (number == SYS_io_uring_setup) {
    errno = EPERM;
    return -1;
  }
  static long (*real)(long, ...);
  if (!real) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
