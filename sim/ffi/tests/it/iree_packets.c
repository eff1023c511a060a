// The test oracle of vendor_packets.rs: AQL packets and PM4 indirect
// buffers written by IREE's own AMDGPU driver code, compiled from IREE's
// source (its emitters are header-only; the vendor-packet selection is
// physical_device_capabilities.c, compiled with this file). The test gives
// the addresses (simulated pool memory, signals); nothing here dereferences
// them: IREE's emitters only encode them.
//
// Usage: iree_packets GFX COMMAND ARGS...
//   GFX: major.minor.stepping (9.0.10 gfx90a, 9.4.2 gfx942, 11.0.0 gfx1100)
//   layout                                    struct sizes and offsets
//   select                                    IREE's capability choices
//   wait SIGNAL EPOCH IB COMPLETION           an epoch wait as
//                                             host_queue_waits.c writes it
//   barrier_value SIGNAL COND VALUE MASK COMPLETION
//   timestamps START END IB COMPLETION        a start/end range (profiling)
//   fill TARGET VALUE BYTES IB COMPLETION     queue_fill's PM4 WRITE_DATA
//   copy SOURCE TARGET BYTES IB COMPLETION    queue_copy's PM4 COPY_DATA
//   barrier IB COMPLETION                     a PM4 command-buffer barrier
//   perfcounter REGISTER TARGET IB COMPLETION a counter readback
//   dispatch DESCRIPTOR KERNARGS_HEX OBJECT WG_X WG_Y WG_Z COUNT_X COUNT_Y
//            COUNT_Z KERNARGS IB COMPLETION   a PM4 command buffer's
//                                             dispatch (pm4_dispatch.c, as
//                                             pm4_command_buffer.c records
//                                             it) of the kernel whose
//                                             64-byte descriptor (hex) is
//                                             at OBJECT, its kernarg bytes
//                                             (hex) at KERNARGS
//   dispatch_alone ...                        the same without its setup
//                                             and user data: only
//                                             DISPATCH_DIRECT
// Output: "packet" and 16 dwords (the AQL slot as committed: header and
// setup in dword 0), then "ib" and its dwords; or "unsupported" when IREE
// would not emit the packet for this GFX.

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iree/hal/drivers/amdgpu/physical_device_capabilities.h"
#include "iree/hal/drivers/amdgpu/util/aql_emitter.h"
#include "iree/hal/drivers/amdgpu/util/aql_ring.h"
#include "iree/hal/drivers/amdgpu/util/pm4_barrier.h"
#include "iree/hal/drivers/amdgpu/util/pm4_capabilities.h"
#include "iree/hal/drivers/amdgpu/util/pm4_dispatch.h"
#include "iree/hal/drivers/amdgpu/util/pm4_emitter.h"

// physical_device_capabilities.c reports failures this oracle never takes;
// the status it would allocate is only its code.
iree_status_t iree_status_allocate(iree_status_code_t code, const char* file,
                                   uint32_t line, iree_string_view_t message) {
  (void)file;
  (void)line;
  (void)message;
  return (iree_status_t)(uintptr_t)code;
}
iree_status_t iree_status_allocate_f(iree_status_code_t code, const char* file,
                                     uint32_t line, const char* format, ...) {
  (void)file;
  (void)line;
  (void)format;
  return (iree_status_t)(uintptr_t)code;
}

// util/notification_ring.h's IREE_HAL_AMDGPU_EPOCH_INITIAL_VALUE.
#define EPOCH_INITIAL_VALUE (INT64_MAX / 2)

static uint64_t arg(char** argv, int i) {
  return strtoull(argv[i], NULL, 0);
}

static void print_packet(const void* packet, uint16_t header, uint16_t setup) {
  uint32_t dwords[16];
  memcpy(dwords, packet, sizeof(dwords));
  dwords[0] = (uint32_t)header | ((uint32_t)setup << 16);
  printf("packet");
  for (int i = 0; i < 16; ++i) printf(" %08" PRIx32, dwords[i]);
  printf("\n");
}

static void print_ib(const uint32_t* dwords, uint32_t count) {
  printf("ib");
  for (uint32_t i = 0; i < count; ++i) printf(" %08" PRIx32, dwords[i]);
  printf("\n");
}

// The PM4-IB packet IREE commits for |count| dwords of |slot| placed at
// |ib| (host_queue_submission.c: a final packet with barrier and system
// scopes).
static void print_pm4_ib(const iree_hal_amdgpu_pm4_ib_slot_t* slot,
                         uint32_t count, uint64_t ib, uint64_t completion) {
  iree_hal_amdgpu_aql_packet_t packet;
  memset(&packet, 0xAB, sizeof(packet));  // the emitter must write every field
  uint16_t setup = 0;
  uint16_t header = iree_hal_amdgpu_aql_emit_pm4_ib_dwords(
      &packet.pm4_ib, (const uint32_t*)(uintptr_t)ib, count,
      iree_hal_amdgpu_aql_packet_control_barrier_system(),
      (iree_hsa_signal_t){.handle = completion}, &setup);
  print_packet(&packet, header, setup);
  print_ib(slot->dwords, count);
}

// Reads |bytes| bytes of hex into |out|; false on a short or odd string.
static bool parse_hex(const char* text, uint8_t* out, size_t bytes) {
  if (strlen(text) != 2 * bytes) return false;
  for (size_t i = 0; i < bytes; ++i) {
    unsigned value = 0;
    if (sscanf(text + 2 * i, "%2x", &value) != 1) return false;
    out[i] = (uint8_t)value;
  }
  return true;
}

// A PM4 command buffer's dispatch: the launch state IREE derives from the
// descriptor at executable load (executable.c), its 36 setup dwords, the
// user data with the kernarg address (and preloaded kernargs), and
// DISPATCH_DIRECT with the workgroup count, in one indirect buffer.
static int dispatch(iree_hal_amdgpu_vendor_packet_capability_flags_t caps,
                    char** argv, bool alone) {
  if (!iree_hal_amdgpu_vendor_packet_capabilities_support_pm4_dispatch_command_buffers(
          caps)) {
    printf("unsupported\n");
    return 0;
  }
  iree_hal_amdgpu_kernel_descriptor_t descriptor;
  uint8_t kernargs[256] = {0};
  const size_t kernarg_bytes = strlen(argv[4]) / 2;
  if (!parse_hex(argv[3], (uint8_t*)&descriptor, sizeof(descriptor)) ||
      kernarg_bytes > sizeof(kernargs) ||
      !parse_hex(argv[4], kernargs, kernarg_bytes)) {
    return 2;
  }
  const uint64_t object = arg(argv, 5);
  const uint16_t workgroup_size[3] = {
      (uint16_t)arg(argv, 6), (uint16_t)arg(argv, 7), (uint16_t)arg(argv, 8)};
  iree_hal_amdgpu_pm4_dispatch_launch_state_t state;
  if (!iree_hal_amdgpu_pm4_dispatch_launch_state_is_supported_gfx10(
          &descriptor, object, workgroup_size,
          IREE_HAL_AMDGPU_PM4_DISPATCH_LAUNCH_FLAG_NONE) ||
      !iree_status_is_ok(
          iree_hal_amdgpu_pm4_dispatch_launch_state_initialize_gfx10(
              &descriptor, object, workgroup_size,
              IREE_HAL_AMDGPU_PM4_DISPATCH_LAUNCH_FLAG_NONE, &state))) {
    printf("unsupported\n");
    return 0;
  }
  uint32_t dwords[IREE_HAL_AMDGPU_PM4_DISPATCH_SETUP_DWORD_COUNT + 2 +
                  IREE_HAL_AMDGPU_PM4_DISPATCH_USER_DATA_DWORD_CAPACITY +
                  IREE_HAL_AMDGPU_PM4_DISPATCH_DIRECT_DWORD_COUNT];
  uint32_t count = 0, emitted = 0;
  if (!alone) {
    if (!iree_status_is_ok(iree_hal_amdgpu_pm4_dispatch_emit_setup(
            &state, IREE_HAL_AMDGPU_PM4_DISPATCH_SETUP_DWORD_COUNT, dwords,
            &emitted))) {
      return 3;
    }
    count += emitted;
    if (!iree_status_is_ok(iree_hal_amdgpu_pm4_dispatch_emit_user_data(
            &state, arg(argv, 12),
            kernargs + state.kernarg_preload_dword_offset * sizeof(uint32_t),
            2 + IREE_HAL_AMDGPU_PM4_DISPATCH_USER_DATA_DWORD_CAPACITY,
            dwords + count, &emitted))) {
      return 3;
    }
    count += emitted;
  }
  uint32_t* direct = dwords + count;
  direct[0] = iree_hal_amdgpu_pm4_make_compute_header(
      IREE_HAL_AMDGPU_PM4_HDR_IT_OPCODE_DISPATCH_DIRECT,
      IREE_HAL_AMDGPU_PM4_DISPATCH_DIRECT_DWORD_COUNT);
  direct[1] = (uint32_t)arg(argv, 9);
  direct[2] = (uint32_t)arg(argv, 10);
  direct[3] = (uint32_t)arg(argv, 11);
  direct[4] = state.dispatch_initiator;
  count += IREE_HAL_AMDGPU_PM4_DISPATCH_DIRECT_DWORD_COUNT;
  const uint64_t ib = arg(argv, 13);
  iree_hal_amdgpu_aql_packet_t packet;
  memset(&packet, 0xAB, sizeof(packet));
  uint16_t setup = 0;
  uint16_t header = iree_hal_amdgpu_aql_emit_pm4_ib_dwords(
      &packet.pm4_ib, (const uint32_t*)(uintptr_t)ib, count,
      iree_hal_amdgpu_aql_packet_control_barrier_system(),
      (iree_hsa_signal_t){.handle = arg(argv, 14)}, &setup);
  print_packet(&packet, header, setup);
  print_ib(dwords, count);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  iree_hal_amdgpu_gfxip_version_t gfx = {0};
  unsigned major = 0, minor = 0, stepping = 0;
  if (sscanf(argv[1], "%u.%u.%u", &major, &minor, &stepping) != 3) return 2;
  gfx.major = (uint16_t)major;
  gfx.minor = (uint16_t)minor;
  gfx.stepping = (uint16_t)stepping;
  const iree_hal_amdgpu_vendor_packet_capability_flags_t caps =
      iree_hal_amdgpu_select_vendor_packet_capabilities(gfx);
  const iree_hal_amdgpu_pm4_timestamp_strategy_t timestamps =
      iree_hal_amdgpu_select_pm4_timestamp_strategy(gfx);
  const iree_hal_amdgpu_wait_barrier_strategy_t waits =
      iree_hal_amdgpu_select_wait_barrier_strategy(caps);
  const char* command = argv[2];
  iree_hal_amdgpu_pm4_ib_slot_t slot;
  iree_hal_amdgpu_pm4_ib_builder_t builder;
  iree_hal_amdgpu_pm4_ib_builder_initialize(&slot, &builder);

  if (!strcmp(command, "layout")) {
    printf("pm4_ib %zu %zu %zu %zu %zu %zu\n",
           sizeof(iree_hsa_amd_aql_pm4_ib_packet_t),
           offsetof(iree_hsa_amd_aql_pm4_ib_packet_t, header),
           offsetof(iree_hsa_amd_aql_pm4_ib_packet_t, ib_jump_cmd),
           offsetof(iree_hsa_amd_aql_pm4_ib_packet_t, dw_cnt_remain),
           offsetof(iree_hsa_amd_aql_pm4_ib_packet_t, reserved),
           offsetof(iree_hsa_amd_aql_pm4_ib_packet_t, completion_signal));
    printf("vendor_header %zu %zu %zu\n",
           sizeof(iree_hsa_amd_vendor_packet_header_t),
           offsetof(iree_hsa_amd_vendor_packet_header_t, AmdFormat),
           offsetof(iree_hsa_amd_vendor_packet_header_t, reserved));
    printf("formats %d %d\n", IREE_HSA_AMD_AQL_FORMAT_PM4_IB,
           IREE_HSA_AMD_AQL_FORMAT_BARRIER_VALUE);
    return 0;
  }
  if (!strcmp(command, "select")) {
    printf("caps %#x timestamps %d waits %d\n", caps, (int)timestamps,
           (int)waits);
    return 0;
  }
  if (!strcmp(command, "wait") && argc == 7) {
    // host_queue_waits.c: the epoch signal is complete for |epoch| once
    // its value is at most INITIAL - epoch, written as LT INITIAL - epoch
    // + 1 under a sign mask, in the queue's selected strategy.
    const uint64_t signal = arg(argv, 3), epoch = arg(argv, 4);
    const uint64_t ib = arg(argv, 5), completion = arg(argv, 6);
    const iree_hsa_signal_value_t compare =
        (iree_hsa_signal_value_t)(EPOCH_INITIAL_VALUE - epoch + 1);
    const iree_hal_amdgpu_aql_packet_control_t control =
        iree_hal_amdgpu_aql_packet_control_barrier(IREE_HSA_FENCE_SCOPE_AGENT,
                                                   IREE_HSA_FENCE_SCOPE_NONE);
    iree_hal_amdgpu_aql_packet_t packet;
    memset(&packet, 0xAB, sizeof(packet));
    uint16_t setup = 0;
    uint16_t header = 0;
    switch (waits) {
      case IREE_HAL_AMDGPU_WAIT_BARRIER_STRATEGY_AQL_BARRIER_VALUE:
        header = iree_hal_amdgpu_aql_emit_barrier_value(
            &packet.barrier_value, (iree_hsa_signal_t){.handle = signal},
            IREE_HSA_SIGNAL_CONDITION_LT, compare,
            (iree_hsa_signal_value_t)INT64_MAX, control,
            (iree_hsa_signal_t){.handle = completion}, &setup);
        print_packet(&packet, header, setup);
        return 0;
      case IREE_HAL_AMDGPU_WAIT_BARRIER_STRATEGY_PM4_WAIT_REG_MEM64: {
        uint32_t count = iree_hal_amdgpu_pm4_emit_wait_reg_mem64(
            &slot, (iree_hsa_signal_t){.handle = signal}, compare,
            (iree_hsa_signal_value_t)INT64_MAX);
        header = iree_hal_amdgpu_aql_emit_pm4_ib_dwords(
            &packet.pm4_ib, (const uint32_t*)(uintptr_t)ib, count, control,
            (iree_hsa_signal_t){.handle = completion}, &setup);
        print_packet(&packet, header, setup);
        print_ib(slot.dwords, count);
        return 0;
      }
      default:
        printf("unsupported\n");
        return 0;
    }
  }
  if (!strcmp(command, "barrier_value") && argc == 8) {
    iree_hal_amdgpu_aql_packet_t packet;
    memset(&packet, 0xAB, sizeof(packet));
    uint16_t setup = 0;
    uint16_t header = iree_hal_amdgpu_aql_emit_barrier_value(
        &packet.barrier_value, (iree_hsa_signal_t){.handle = arg(argv, 3)},
        (iree_hsa_signal_condition_t)arg(argv, 4),
        (iree_hsa_signal_value_t)arg(argv, 5),
        (iree_hsa_signal_value_t)arg(argv, 6),
        iree_hal_amdgpu_aql_packet_control_barrier_system(),
        (iree_hsa_signal_t){.handle = arg(argv, 7)}, &setup);
    print_packet(&packet, header, setup);
    return 0;
  }
  if ((!strcmp(command, "dispatch") || !strcmp(command, "dispatch_alone")) &&
      argc == 15) {
    return dispatch(caps, argv, !strcmp(command, "dispatch_alone"));
  }
  bool emitted = false;
  int rest = 0;  // index of IB and COMPLETION in argv
  if (!strcmp(command, "timestamps") && argc == 7) {
    emitted = iree_hal_amdgpu_pm4_ib_builder_emit_timestamp_range_to_memory(
        &builder, timestamps, (void*)(uintptr_t)arg(argv, 3),
        (void*)(uintptr_t)arg(argv, 4));
    rest = 5;
  } else if (!strcmp(command, "fill") && argc == 8) {
    // host_queue_blit.c: 4- and 8-byte fills take WRITE_DATA where the
    // queue supports it.
    if (!iree_hal_amdgpu_vendor_packet_capabilities_support_pm4_memory_write_data(
            caps)) {
      printf("unsupported\n");
      return 0;
    }
    void* target = (void*)(uintptr_t)arg(argv, 3);
    emitted = arg(argv, 5) == 4
                  ? iree_hal_amdgpu_pm4_ib_builder_emit_write_data32(
                        &builder, target, (uint32_t)arg(argv, 4))
                  : iree_hal_amdgpu_pm4_ib_builder_emit_write_data64(
                        &builder, target, arg(argv, 4));
    rest = 6;
  } else if (!strcmp(command, "copy") && argc == 8) {
    if (!iree_hal_amdgpu_vendor_packet_capabilities_support_pm4_memory_copy_data(
            caps)) {
      printf("unsupported\n");
      return 0;
    }
    const void* source = (const void*)(uintptr_t)arg(argv, 3);
    void* target = (void*)(uintptr_t)arg(argv, 4);
    emitted = arg(argv, 5) == 4
                  ? iree_hal_amdgpu_pm4_ib_builder_emit_copy_data32(
                        &builder, source, target)
                  : iree_hal_amdgpu_pm4_ib_builder_emit_copy_data64(
                        &builder, source, target);
    rest = 6;
  } else if (!strcmp(command, "barrier") && argc == 5) {
    // pm4_command_buffer.c's execution barrier between dispatches.
    uint32_t count = 0;
    emitted = iree_hal_amdgpu_pm4_barrier_emit(
        caps, IREE_HAL_AMDGPU_PM4_BARRIER_FLAG_EXECUTION,
        IREE_HSA_FENCE_SCOPE_SYSTEM, IREE_HSA_FENCE_SCOPE_SYSTEM,
        IREE_HAL_AMDGPU_PM4_IB_SLOT_DWORD_CAPACITY, slot.dwords, &count);
    builder.dword_count = count;
    rest = 3;
  } else if (!strcmp(command, "perfcounter") && argc == 7) {
    emitted = iree_hal_amdgpu_pm4_ib_builder_emit_copy_register32_to_memory(
        &builder, IREE_HAL_AMDGPU_PM4_REGISTER_SPACE_PERFCOUNTER,
        (uint32_t)arg(argv, 3), (void*)(uintptr_t)arg(argv, 4),
        IREE_HAL_AMDGPU_PM4_WRITE_CONFIRMATION_WAIT);
    rest = 5;
  } else {
    return 2;
  }
  if (!emitted) {
    printf("unsupported\n");
    return 0;
  }
  print_pm4_ib(&slot, iree_hal_amdgpu_pm4_ib_builder_dword_count(&builder),
               arg(argv, rest), arg(argv, rest + 1));
  return 0;
}
