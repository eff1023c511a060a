// What IREE's own AMDGPU driver registers for an executable: built into
// IREE's tree by amdgpu-hal's scripts/iree-cts/prepare.py, linked with the
// driver, and run by tests/it/sim/iree_seed_port.rs against `amdgpu-hal load`
// on the same simulated node.
//
// usage: executable_probe FILE [QUEUE_AFFINITY]
//
// Creates the driver's default device (every GPU of the node), prepares
// FILE (a raw HSACO or an AMD1 executable, format inferred by the driver)
// with QUEUE_AFFINITY (default: any queue), and prints one JSON document:
// for every export its HAL facts and, on every physical device, the kernel
// arguments the driver uploaded for it (lookup_kernel_args_for_device), with
// the load base of the code object that holds the kernel object, from the
// HSA loader extension's segment descriptors (the lowest segment of that
// code object on that agent). A device outside the affinity is listed with
// "loaded": false.
//
// HSA comes from IREE_HAL_AMDGPU_LIBHSA_PATH (a directory holding
// libhsa-runtime64.so.1), the library the driver itself loads.

#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ven_amd_loader.h"
#include "iree/base/api.h"
#include "iree/hal/api.h"
#include "iree/hal/drivers/amdgpu/executable.h"
#include "iree/hal/drivers/amdgpu/logical_device.h"
#include "iree/hal/drivers/amdgpu/registration/driver_module.h"
#include "iree/io/file_contents.h"

// Most loaded segments the probe reads (the node holds a few per loaded
// code object: the driver's device library and the probed executable).
#define PROBE_MAX_SEGMENTS 4096

typedef hsa_status_t (*get_extension_table_fn)(uint16_t, uint16_t, size_t,
                                               void*);

static hsa_ven_amd_loader_segment_descriptor_t segments[PROBE_MAX_SEGMENTS];
static size_t segment_count = 0;

static iree_status_t read_segments(void) {
  const char* dir = getenv("IREE_HAL_AMDGPU_LIBHSA_PATH");
  if (!dir) {
    return iree_make_status(IREE_STATUS_FAILED_PRECONDITION,
                            "IREE_HAL_AMDGPU_LIBHSA_PATH is not set");
  }
  char path[4096];
  snprintf(path, sizeof(path), "%s/libhsa-runtime64.so.1", dir);
  void* library = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  if (!library) {
    return iree_make_status(IREE_STATUS_NOT_FOUND,
                            "the driver did not load %s", path);
  }
  get_extension_table_fn get_table = (get_extension_table_fn)dlsym(
      library, "hsa_system_get_major_extension_table");
  hsa_ven_amd_loader_1_00_pfn_t loader;
  memset(&loader, 0, sizeof(loader));
  iree_status_t status = iree_ok_status();
  if (!get_table || get_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof(loader),
                              &loader) != HSA_STATUS_SUCCESS) {
    status = iree_make_status(IREE_STATUS_UNAVAILABLE,
                              "no HSA AMD loader extension table");
  }
  size_t count = 0;
  if (iree_status_is_ok(status) &&
      loader.hsa_ven_amd_loader_query_segment_descriptors(NULL, &count) !=
          HSA_STATUS_SUCCESS) {
    status = iree_make_status(IREE_STATUS_INTERNAL,
                              "counting the loaded segments failed");
  }
  if (iree_status_is_ok(status) && count > PROBE_MAX_SEGMENTS) {
    status = iree_make_status(IREE_STATUS_RESOURCE_EXHAUSTED,
                              "%zu loaded segments, more than %d", count,
                              PROBE_MAX_SEGMENTS);
  }
  if (iree_status_is_ok(status) &&
      loader.hsa_ven_amd_loader_query_segment_descriptors(
          segments, &count) != HSA_STATUS_SUCCESS) {
    status = iree_make_status(IREE_STATUS_INTERNAL,
                              "reading the loaded segments failed");
  }
  segment_count = iree_status_is_ok(status) ? count : 0;
  dlclose(library);
  return status;
}

// The load base of the code object whose segment holds `address`: the
// lowest segment base of that code object on that agent; 0 when none does.
static uint64_t load_base_of(uint64_t address) {
  for (size_t i = 0; i < segment_count; ++i) {
    const hsa_ven_amd_loader_segment_descriptor_t* s = &segments[i];
    uint64_t base = (uint64_t)(uintptr_t)s->segment_base;
    if (address < base || address - base >= s->segment_size) continue;
    uint64_t lowest = base;
    for (size_t j = 0; j < segment_count; ++j) {
      const hsa_ven_amd_loader_segment_descriptor_t* t = &segments[j];
      if (t->agent.handle == s->agent.handle &&
          t->executable.handle == s->executable.handle &&
          t->code_object_storage_base == s->code_object_storage_base &&
          (uint64_t)(uintptr_t)t->segment_base < lowest) {
        lowest = (uint64_t)(uintptr_t)t->segment_base;
      }
    }
    return lowest;
  }
  return 0;
}

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
    printf(", \"loaded\": true, \"kernel_object\": %" PRIu64
           ", \"load_base\": %" PRIu64,
           args->kernel_object, load_base_of(args->kernel_object));
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
  iree_hal_driver_t* driver = NULL;
  iree_hal_device_t* device = NULL;
  iree_hal_executable_cache_t* cache = NULL;
  iree_hal_executable_t* executable = NULL;
  iree_io_file_contents_t* contents = NULL;
  iree_status_t status = iree_hal_driver_registry_try_create(
      iree_hal_driver_registry_default(), IREE_SV("amdgpu"), host_allocator,
      &driver);
  if (iree_status_is_ok(status)) {
    iree_hal_device_create_params_t params =
        iree_hal_device_create_params_default();
    status = iree_hal_driver_create_default_device(driver, &params,
                                                   host_allocator, &device);
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
  if (iree_status_is_ok(status)) status = read_segments();
  if (iree_status_is_ok(status)) {
    // The driver's default device is its logical device (no wrapper).
    iree_host_size_t device_count =
        ((iree_hal_amdgpu_logical_device_t*)device)->physical_device_count;
    printf("{\"format\": \"%s\", \"physical_devices\": %" PRIhsz
           ", \"exports\": [",
           format, device_count);
    iree_host_size_t count = iree_hal_executable_function_count(executable);
    for (iree_host_size_t i = 0; i < count; ++i) {
      print_export(executable, i, device_count);
    }
    printf("\n]}\n");
  }
  iree_hal_executable_release(executable);
  iree_hal_executable_cache_release(cache);
  iree_io_file_contents_free(contents);
  iree_hal_device_release(device);
  iree_hal_driver_release(driver);
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
