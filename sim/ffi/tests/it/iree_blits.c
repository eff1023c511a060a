// The test oracle of iree_blits.rs: the dispatch packets and kernargs IREE's
// AMDGPU driver writes for queue_fill and queue_copy, by IREE's own
// device/blit.c (compiled from IREE's source for the host, as IREE's
// blit_test.cc does), with the kernel table the driver builds from the
// loaded device library (util/device_library.c: every kernel 3-dimensional,
// its work-group size from device/kernel_tables.h, the rest from HSA's
// symbol info, which the test reads and passes). Nothing here dereferences
// the addresses it is given: blit.c only encodes them.
//
// Usage: iree_blits COMMAND ARGS... -- KERNEL...
//   fill TARGET LENGTH PATTERN PATTERN_LENGTH KERNARGS WAVEFRONT CUS
//   copy SOURCE TARGET LENGTH KERNARGS WAVEFRONT CUS
//   names                       the kernel table's names, one a line
// KERNEL: NAME=OBJECT,KERNARG_SIZE,KERNARG_ALIGNMENT,PRIVATE,GROUP for each
// name of the table. KERNARGS is where the test places the kernarg bytes
// (the packet's kernarg_address).
// Output: "packet" and 16 dwords (the AQL slot as IREE leaves it for the
// queue to commit: header and completion signal 0), then "kernargs" and the
// kernarg bytes; or "unsupported" when blit.c refuses the transfer.

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iree/hal/drivers/amdgpu/device/blit.h"
#include "third_party/hsa-runtime-headers/include/hsa/hsa.h"

static uint64_t arg(char** argv, int i) { return strtoull(argv[i], NULL, 0); }

// Fills |kernels| from "NAME=OBJECT,SIZE,ALIGNMENT,PRIVATE,GROUP" words;
// returns 0 when every kernel of the table was given.
static int parse_kernels(int argc, char** argv,
                         iree_hal_amdgpu_device_kernels_t* kernels) {
  memset(kernels, 0, sizeof(*kernels));
  int missing = 0;
#define IREE_HAL_AMDGPU_DEVICE_KERNEL(name, wg_x, wg_y, wg_z)                  \
  {                                                                            \
    int found = 0;                                                             \
    for (int i = 0; i < argc; ++i) {                                           \
      size_t n = strlen(#name);                                                \
      if (strncmp(argv[i], #name, n) != 0 || argv[i][n] != '=') continue;      \
      unsigned long long object = 0;                                           \
      unsigned size = 0, alignment = 0, private_size = 0, group = 0;           \
      if (sscanf(argv[i] + n + 1, "%llx,%u,%u,%u,%u", &object, &size,          \
                 &alignment, &private_size, &group) != 5) {                    \
        break;                                                                 \
      }                                                                        \
      kernels->name.kernel_object = object;                                    \
      kernels->name.setup = 3 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS; \
      kernels->name.workgroup_size[0] = wg_x;                                  \
      kernels->name.workgroup_size[1] = wg_y;                                  \
      kernels->name.workgroup_size[2] = wg_z;                                  \
      kernels->name.private_segment_size = private_size;                       \
      kernels->name.group_segment_size = group;                                \
      kernels->name.kernarg_size = (uint16_t)size;                             \
      kernels->name.kernarg_alignment = (uint16_t)alignment;                   \
      found = 1;                                                               \
    }                                                                          \
    if (!found) {                                                              \
      fprintf(stderr, "no kernel %s\n", #name);                                \
      missing = 1;                                                             \
    }                                                                          \
  }
#include "iree/hal/drivers/amdgpu/device/kernel_tables.h"
#undef IREE_HAL_AMDGPU_DEVICE_KERNEL
  return missing;
}

static void print_names(void) {
#define IREE_HAL_AMDGPU_DEVICE_KERNEL(name, wg_x, wg_y, wg_z) printf("%s\n", #name);
#include "iree/hal/drivers/amdgpu/device/kernel_tables.h"
#undef IREE_HAL_AMDGPU_DEVICE_KERNEL
}

static void print_result(const iree_hsa_kernel_dispatch_packet_t* packet,
                         const uint8_t* kernargs, size_t kernarg_size) {
  uint32_t dwords[16];
  memcpy(dwords, packet, sizeof(dwords));
  printf("packet");
  for (int i = 0; i < 16; ++i) printf(" %08" PRIx32, dwords[i]);
  printf("\nkernargs");
  for (size_t i = 0; i < kernarg_size; ++i) printf(" %02x", kernargs[i]);
  printf("\n");
}

int main(int argc, char** argv) {
  if (argc >= 2 && strcmp(argv[1], "names") == 0) {
    print_names();
    return 0;
  }
  int separator = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--") == 0) separator = i;
  }
  if (argc < 3 || separator == 0) {
    fprintf(stderr, "usage: iree_blits COMMAND ARGS... -- KERNEL...\n");
    return 2;
  }
  iree_hal_amdgpu_device_kernels_t kernels;
  if (parse_kernels(argc - separator - 1, argv + separator + 1, &kernels)) {
    return 2;
  }
  iree_hsa_kernel_dispatch_packet_t packet;
  memset(&packet, 0, sizeof(packet));
  uint8_t kernargs[64] = {0};
  bool emitted = false;
  size_t kernarg_size = 0;
  uint64_t kernarg_address = 0;
  uint32_t wavefront = 0, cus = 0;
  if (strcmp(argv[1], "fill") == 0 && separator == 9) {
    kernarg_address = arg(argv, 6);
    wavefront = (uint32_t)arg(argv, 7);
    cus = (uint32_t)arg(argv, 8);
    iree_hal_amdgpu_device_buffer_transfer_context_t context;
    iree_hal_amdgpu_device_buffer_transfer_context_initialize(&kernels, cus, wavefront,
                                                              &context);
    emitted = iree_hal_amdgpu_device_buffer_fill_emplace(
        &context, &packet, (void*)(uintptr_t)arg(argv, 2), arg(argv, 3), arg(argv, 4),
        (uint8_t)arg(argv, 5), kernargs);
    kernarg_size = IREE_HAL_AMDGPU_DEVICE_BUFFER_FILL_KERNARG_SIZE;
  } else if (strcmp(argv[1], "copy") == 0 && separator == 8) {
    kernarg_address = arg(argv, 5);
    wavefront = (uint32_t)arg(argv, 6);
    cus = (uint32_t)arg(argv, 7);
    iree_hal_amdgpu_device_buffer_transfer_context_t context;
    iree_hal_amdgpu_device_buffer_transfer_context_initialize(&kernels, cus, wavefront,
                                                              &context);
    emitted = iree_hal_amdgpu_device_buffer_copy_emplace(
        &context, &packet, (const void*)(uintptr_t)arg(argv, 2),
        (void*)(uintptr_t)arg(argv, 3), arg(argv, 4), kernargs);
    kernarg_size = IREE_HAL_AMDGPU_DEVICE_BUFFER_COPY_KERNARG_SIZE;
  } else {
    fprintf(stderr, "unknown command or arguments\n");
    return 2;
  }
  if (!emitted) {
    printf("unsupported\n");
    return 0;
  }
  // blit.c points the packet at its kernarg storage: here a local buffer,
  // in the queue at KERNARGS.
  packet.kernarg_address = (void*)(uintptr_t)kernarg_address;
  print_result(&packet, kernargs, kernarg_size);
  return 0;
}
