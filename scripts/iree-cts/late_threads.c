// An LD_PRELOAD library that starts a program's own threads late: a thread
// whose start routine lies in the program (not in a shared library) sleeps
// LATE_THREADS_MS milliseconds (default 200) before it runs. Threads that
// libraries start (the simulated node's packet processors among them) start
// at once.
//
// It turns a race that needs a loaded machine into one that happens every
// time: IREE defect 10 (docs/IREE-DEFECTS.md), where a host queue's
// completion thread that starts after a waiter has drained the queue never
// runs the actions parked for the next drain.
//
//   cc -shared -fPIC -o late_threads.so scripts/iree-cts/late_threads.c -ldl
//   LD_PRELOAD="target/sim-lib/libamdgpu_sim_kfd.so $PWD/late_threads.so" ...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void* (*start_routine_t)(void*);
typedef int (*pthread_create_t)(pthread_t*, const pthread_attr_t*,
                                start_routine_t, void*);

struct late_start {
  start_routine_t start;
  void* arg;
};

static void* start_late(void* opaque) {
  struct late_start late = *(struct late_start*)opaque;
  free(opaque);
  const char* text = getenv("LATE_THREADS_MS");
  long ms = text ? atol(text) : 200;
  struct timespec delay = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&delay, NULL);
  return late.start(late.arg);
}

// Whether `address` is code of the program itself: dladdr names the object
// holding it, and only shared objects carry ".so" in their names.
static int in_program(void* address) {
  Dl_info info;
  return dladdr(address, &info) && info.dli_fname &&
         !strstr(info.dli_fname, ".so");
}

int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                   start_routine_t start, void* arg) {
  pthread_create_t next = (pthread_create_t)dlsym(RTLD_NEXT, "pthread_create");
  if (!next) return EAGAIN;
  struct late_start* late = NULL;
  if (in_program((void*)start) && (late = malloc(sizeof *late))) {
    late->start = start;
    late->arg = arg;
    int result = next(thread, attr, start_late, late);
    if (result != 0) free(late);
    return result;
  }
  return next(thread, attr, start, arg);
}
