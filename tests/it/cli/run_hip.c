// A HIP program as a user builds one without hipcc: Debian's
// hip_runtime_api.h and libamdhip64, no kernel of its own (launches by
// <<<>>> need a compiled fat binary). tests/it/cli/run.rs runs it under
// `amdgpu-hal run`. It lists the devices, copies data to the first one and
// back, fills device memory, and runs `vector_add` from the code object
// named by argv[1] on 1000 floats; every value is checked against what the
// host computes. Prints what it saw; exits 1 on any wrong value or HIP
// error, unless argv[2] is "--ignore-errors" (a client that does not check
// its launches: `run` must still notice a faulted kernel).
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ignore_errors;
static int failures;

static void check(hipError_t error, const char *what) {
  if (error != hipSuccess) {
    printf("error %s: %s\n", what, hipGetErrorName(error));
    failures++;
  }
}

static void *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  void *bytes = malloc(size);
  if (bytes && fread(bytes, 1, size, f) != (size_t)size) {
    free(bytes);
    bytes = NULL;
  }
  fclose(f);
  return bytes;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s CODE_OBJECT [--ignore-errors]\n", argv[0]);
    return 2;
  }
  ignore_errors = argc > 2 && strcmp(argv[2], "--ignore-errors") == 0;
  int count = 0;
  check(hipGetDeviceCount(&count), "hipGetDeviceCount");
  printf("devices %d\n", count);
  for (int i = 0; i < count; i++) {
    hipDeviceProp_t props;
    check(hipGetDeviceProperties(&props, i), "hipGetDeviceProperties");
    printf("device %d %s %s\n", i, props.name, props.gcnArchName);
  }
  if (count == 0) return 1;

  enum { N = 1000 };
  float lhs[N], rhs[N], out[N];
  for (int i = 0; i < N; i++) {
    lhs[i] = (float)i * 0.5f;
    rhs[i] = (float)(N - i);
  }
  float *d_lhs = NULL, *d_rhs = NULL, *d_out = NULL;
  check(hipMalloc((void **)&d_lhs, sizeof lhs), "hipMalloc");
  check(hipMalloc((void **)&d_rhs, sizeof rhs), "hipMalloc");
  check(hipMalloc((void **)&d_out, sizeof out), "hipMalloc");
  check(hipMemcpy(d_lhs, lhs, sizeof lhs, hipMemcpyHostToDevice), "hipMemcpy");
  check(hipMemcpy(d_rhs, rhs, sizeof rhs, hipMemcpyHostToDevice), "hipMemcpy");

  // Device memory round trip and a fill.
  float back[N];
  check(hipMemcpy(back, d_lhs, sizeof back, hipMemcpyDeviceToHost), "hipMemcpy");
  int copied = memcmp(back, lhs, sizeof lhs) == 0;
  check(hipMemset(d_out, 0x7f, sizeof out), "hipMemset");
  unsigned char filled[sizeof out];
  check(hipMemcpy(filled, d_out, sizeof filled, hipMemcpyDeviceToHost), "hipMemcpy");
  int fill_ok = 1;
  for (size_t i = 0; i < sizeof filled; i++) fill_ok &= filled[i] == 0x7f;
  printf("copy %s\nfill %s\n", copied ? "ok" : "wrong", fill_ok ? "ok" : "wrong");

  // vector_add(out, lhs, rhs, n) from the code object, 64-wide blocks.
  void *image = read_file(argv[1]);
  if (!image) {
    printf("cannot read %s\n", argv[1]);
    return 1;
  }
  hipModule_t module = NULL;
  hipFunction_t function = NULL;
  check(hipModuleLoadData(&module, image), "hipModuleLoadData");
  check(hipModuleGetFunction(&function, module, "vector_add"), "hipModuleGetFunction");
  unsigned n = N;
  void *args[] = {&d_out, &d_lhs, &d_rhs, &n};
  check(hipModuleLaunchKernel(function, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL),
        "hipModuleLaunchKernel");
  check(hipDeviceSynchronize(), "hipDeviceSynchronize");
  check(hipMemcpy(out, d_out, sizeof out, hipMemcpyDeviceToHost), "hipMemcpy");
  int wrong = 0;
  for (int i = 0; i < N; i++) wrong += out[i] != lhs[i] + rhs[i];
  printf("vector_add %d of %d wrong\n", wrong, N);

  check(hipModuleUnload(module), "hipModuleUnload");
  check(hipFree(d_lhs), "hipFree");
  check(hipFree(d_rhs), "hipFree");
  check(hipFree(d_out), "hipFree");
  free(image);
  int ok = failures == 0 && copied && fill_ok && wrong == 0;
  return ok || ignore_errors ? 0 : 1;
}
