#!/usr/bin/env bash
# Runs the FFI-shim scenarios of tests/sim_ffi.rs with each child process
# (the real dylib backend driving libamdgpu_sim_ffi.so) under valgrind's
# memcheck: any invalid read/write, use of uninitialized memory in a branch
# or syscall, or definite/indirect leak fails the run.
#
# Policy (no suppression file is needed):
# - "still reachable" is not an error: the simulated node lives in the
#   shim's statics for the whole process (the library is linked -z nodelete,
#   like a vendor runtime's global state), and so do std's and the loader's
#   one-time allocations (dlopen's link map, TLS, stdout buffers).
# - "possibly lost" is not an error: hashbrown (std's HashMap) keeps an
#   interior pointer to its allocation, so every map held by the
#   process-lifetime node is reported as possibly lost.
#
# Scenarios (a subset, to stay within a couple of minutes): every suite
# fault-free on an 8-GPU and a 4-GPU node, and one failing executable load,
# one failing HSA topology query and one failing HIP query. Pass scenario
# name fragments to choose others (all scenarios: pass ' [').
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null; then
    echo "valgrind-shim: valgrind is not installed" >&2
    exit 1
fi
if [ "$#" -eq 0 ]; then
    set -- "mi300x-8 []" "mi250x-4 []" "hsa_memory_copy@1+" "hsa_amd_memory_pool_get_info@3" \
        "hipDeviceGetAttribute@3"
fi
export AMDGPU_SIM_FFI_WRAPPER="valgrind --error-exitcode=1 --leak-check=full \
--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
--track-origins=yes --quiet"
exec cargo test --features real --test sim_ffi -- "$@"
