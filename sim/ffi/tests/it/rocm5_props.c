// A program built against Debian's ROCm 5.2 HIP headers and linked against
// its libamdhip64.so.5 (so it asks the loader for hipGetDeviceProperties@
// hip_4.2 and the 792-byte hipDeviceProp_t of ROCm 5), run on the node
// under that library name by tests/it/hip_abi.rs. Prints what it reads,
// one `key value` per line.
#include <hip/hip_runtime_api.h>
#include <stdio.h>

int main(void) {
  int runtime = 0, driver = 0, count = 0;
  hipDeviceProp_t p;
  if (hipRuntimeGetVersion(&runtime) != hipSuccess ||
      hipDriverGetVersion(&driver) != hipSuccess ||
      hipGetDeviceCount(&count) != hipSuccess ||
      hipGetDeviceProperties(&p, 0) != hipSuccess) {
    printf("error %s\n", hipGetErrorName(hipGetLastError()));
    return 1;
  }
  printf("sizeof %zu\n", sizeof(hipDeviceProp_t));
  printf("runtime %d\ndriver %d\ndevices %d\n", runtime, driver, count);
  printf("name %s\ngcnArchName %s\n", p.name, p.gcnArchName);
  printf("warpSize %d\nmultiProcessorCount %d\n", p.warpSize,
         p.multiProcessorCount);
  printf("totalGlobalMem %zu\nl2CacheSize %d\n", p.totalGlobalMem,
         p.l2CacheSize);
  printf("clockRate %d\nmemoryClockRate %d\nmemoryBusWidth %d\n", p.clockRate,
         p.memoryClockRate, p.memoryBusWidth);
  printf("major %d\nminor %d\nmaxThreadsPerBlock %d\n", p.major, p.minor,
         p.maxThreadsPerBlock);
  return 0;
}
