// What IREE's own AMDGPU driver registers for an executable: built into
// IREE's tree by amdgpu-hal's scripts/iree-cts/prepare.py, linked with the
// driver, and run by tests/it/sim/iree_seed_port.rs against `amdgpu-hal load`
// on the same simulated node.
//
// usage: executable_probe FILE [QUEUE_AFFINITY]
//
// Creates the driver's default device (every GPU of the node) in a device
// group, as IREE's tools and CTS do (a proactor pool and a frontier
// tracker, which give the device its host queues), prepares FILE (a raw
// HSACO or an AMD1 executable, format inferred by the driver) with
// QUEUE_AFFINITY (default: any queue), and prints one JSON document: where
// the driver's profile metadata registry says the code object was loaded on
// each device (load delta and size, from the HSA loader extension), and for
// every export its HAL facts and, on every physical device, the kernel
// arguments the driver uploaded for it (lookup_kernel_args_for_device); a
// device outside the affinity is listed with "loaded": false.
//
// HSA comes from IREE_HAL_AMDGPU_LIBHSA_PATH, as for the driver itself.

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iree/async/frontier_tracker.h"
#include "iree/async/util/proactor_pool.h"
#include "iree/base/api.h"
#include "iree/base/threading/numa.h"
#include "iree/hal/api.h"
#include "iree/hal/drivers/amdgpu/executable.h"
#include "iree/hal/drivers/amdgpu/logical_device.h"
#include "iree/hal/drivers/amdgpu/registration/driver_module.h"
#include "iree/io/file_contents.h"

static void print_export(iree_hal_executable_t* executable, uint64_t ordinal,
                         iree_host_size_t device_count) {
  iree_hal_executable_function_t function = {ordinal};
  iree_hal_executable_function_info_t info;
  memset(&info, 0, sizeof(info));
  iree_status_t status =
      iree_hal_executable_function_info(executable, function, &info);
  printf("%s\n  {\"ordinal\": %" PRIu64 ", \"name\": \"%.*s\"", ordinal ? "," : "",
         ordinal, (int)info.name.size, info.name.data);
  iree_status_ignore(status);
  printf(", \"constant_count\": %u, \"binding_count\": %u",
         info.constant_count, info.binding_count);
  printf(", \"workgroup_size\": [%u, %u, %u], \"devices\": [",
         info.workgroup_size[0], info.workgroup_size[1],
         info.workgroup_size[2]);
  for (iree_host_size_t d = 0; d < device_count; ++d) {
    const iree_hal_amdgpu_device_kernel_args_t* args = NULL;
    status = iree_hal_amdgpu_executable_lookup_kernel_args_for_device(
        executable, (iree_hal_executable_function_t){ordinal}, d, &args);
    printf("%s\n    {\"device\": %" PRIhsz, d ? "," : "", d);
    if (!iree_status_is_ok(status)) {
      iree_status_ignore(status);
      printf(", \"loaded\": false}");
      continue;
    }
    printf(", \"loaded\": true, \"kernel_object\": %" PRIu64,
           args->kernel_object);
    printf(", \"setup\": %u, \"workgroup_size\": [%u, %u, %u]", args->setup,
           args->workgroup_size[0], args->workgroup_size[1],
           args->workgroup_size[2]);
    printf(", \"private_segment_size\": %u, \"group_segment_size\": %u",
           args->private_segment_size, args->group_segment_size);
    printf(", \"kernarg_size\": %u, \"kernarg_alignment\": %u",
           args->kernarg_size, args->kernarg_alignment);
    printf(", \"constant_count\": %u, \"binding_count\": %u}",
           args->constant_count, args->binding_count);
  }
  printf("]}");
}

static iree_status_t probe(const char* file, uint64_t affinity) {
  iree_allocator_t host_allocator = iree_allocator_system();
  IREE_RETURN_IF_ERROR(iree_hal_amdgpu_driver_module_register(
      iree_hal_driver_registry_default()));
  iree_async_proactor_pool_t* proactor_pool = NULL;
  iree_async_frontier_tracker_t* frontier_tracker = NULL;
  iree_hal_driver_t* driver = NULL;
  iree_hal_device_t* device = NULL;
  iree_hal_device_group_t* group = NULL;
  iree_hal_executable_cache_t* cache = NULL;
  iree_hal_executable_t* executable = NULL;
  iree_io_file_contents_t* contents = NULL;
  iree_status_t status = iree_async_proactor_pool_create(
      iree_numa_node_count(), /*node_ids=*/NULL,
      iree_async_proactor_pool_options_default(), host_allocator,
      &proactor_pool);
  if (iree_status_is_ok(status)) {
    status = iree_async_frontier_tracker_create(
        iree_async_frontier_tracker_options_default(), host_allocator,
        &frontier_tracker);
  }
  if (iree_status_is_ok(status)) {
    status = iree_hal_driver_registry_try_create(
        iree_hal_driver_registry_default(), IREE_SV("amdgpu"), host_allocator,
        &driver);
  }
  if (iree_status_is_ok(status)) {
    iree_hal_device_create_params_t params =
        iree_hal_device_create_params_default();
    params.proactor_pool = proactor_pool;
    status = iree_hal_driver_create_default_device(driver, &params,
                                                   host_allocator, &device);
  }
  if (iree_status_is_ok(status)) {
    status = iree_hal_device_group_create_from_device(
        device, frontier_tracker, host_allocator, &group);
  }
  if (iree_status_is_ok(status)) {
    status = iree_io_file_contents_read(iree_make_cstring_view(file),
                                        host_allocator, &contents);
  }
  if (iree_status_is_ok(status)) {
    status = iree_hal_executable_cache_create(device, IREE_SV("probe"), &cache);
  }
  char format[128] = {0};
  if (iree_status_is_ok(status)) {
    iree_host_size_t inferred_size = 0;
    status = iree_hal_executable_cache_infer_format(
        cache, IREE_HAL_EXECUTABLE_CACHING_MODE_ALIAS_PROVIDED_DATA, contents->const_buffer,
        sizeof(format), format, &inferred_size);
  }
  if (iree_status_is_ok(status)) {
    iree_hal_executable_params_t params;
    iree_hal_executable_params_initialize(&params);
    params.queue_affinity = affinity;
    params.caching_mode = IREE_HAL_EXECUTABLE_CACHING_MODE_ALIAS_PROVIDED_DATA;
    params.executable_format = iree_make_cstring_view(format);
    params.executable_data = contents->const_buffer;
    status = iree_hal_executable_cache_prepare_executable(cache, &params,
                                                          &executable);
  }
  if (iree_status_is_ok(status)) {
    // The driver's default device is its logical device (no wrapper).
    iree_hal_amdgpu_logical_device_t* logical_device =
        (iree_hal_amdgpu_logical_device_t*)device;
    iree_host_size_t device_count = logical_device->physical_device_count;
    uint64_t executable_id = iree_hal_amdgpu_executable_profile_id(executable);
    printf("{\"format\": \"%s\", \"physical_devices\": %" PRIhsz
           ", \"code_object_loads\": [",
           format, device_count);
    bool first = true;
    for (iree_host_size_t d = 0; d < device_count; ++d) {
      iree_hal_profile_executable_code_object_load_record_t record;
      iree_status_t lookup =
          iree_hal_amdgpu_profile_metadata_lookup_code_object_load(
              &logical_device->profile_metadata, executable_id, (uint32_t)d,
              &record);
      if (!iree_status_is_ok(lookup)) {
        iree_status_ignore(lookup);
        continue;
      }
      printf("%s\n  {\"device\": %" PRIhsz ", \"load_delta\": %" PRId64
             ", \"load_size\": %" PRIu64 "}",
             first ? "" : ",", d, record.load_delta, record.load_size);
      first = false;
    }
    printf("], \"exports\": [");
    iree_host_size_t count = iree_hal_executable_function_count(executable);
    for (iree_host_size_t i = 0; i < count; ++i) {
      print_export(executable, i, device_count);
    }
    printf("\n]}\n");
  }
  iree_hal_executable_release(executable);
  iree_hal_executable_cache_release(cache);
  iree_io_file_contents_free(contents);
  iree_hal_device_group_release(group);
  iree_hal_device_release(device);
  iree_hal_driver_release(driver);
  iree_async_frontier_tracker_release(frontier_tracker);
  iree_async_proactor_pool_release(proactor_pool);
  return status;
}

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: executable_probe FILE [QUEUE_AFFINITY]\n");
    return 2;
  }
  uint64_t affinity =
      argc == 3 ? strtoull(argv[2], NULL, 0) : IREE_HAL_QUEUE_AFFINITY_ANY;
  iree_status_t status = probe(argv[1], affinity);
  if (!iree_status_is_ok(status)) {
    iree_status_fprint(stderr, status);
    iree_status_free(status);
    return 1;
  }
  return 0;
}
