#!/usr/bin/env bash
# Builds IREE's HAL conformance tests (CTS) for the HIP and AMDGPU drivers
# from an IREE source tree, as IREE builds them, plus the variants
# prepare.py adds (every HIP test with the lists emptied; testdata per chip
# for both drivers), and the AMDGPU driver's own tests that talk to HSA.
#
# usage: scripts/iree-cts/build.sh [WORK]        (WORK: target/iree-cts)
#
# The source, first found of:
#   IREE_SOURCE_DIR      your IREE checkout, with its submodules (copied, never written)
#   IREE_SOURCE_TARBALL  an archive of one (default ../shared/iree/iree-b48a5955-src.tar.gz)
# Needs on PATH: cmake >= 3.26, ninja, iree-compile 3.13 (pip install
# 'cmake>=3.26' ninja iree-base-compiler==3.13.0), clang-19/clang++-19 (or
# CC/CXX), python3. Other settings: AMDGPU_HAL_CTS_CHIPS (default
# "gfx942 gfx90a gfx1100 gfx1201 gfx950": the chips of the presets
# mi300x-8, mi250x-4, w7900, r9700-4, mi355x-8), JOBS (default: the cores).
#
# Writes WORK/src (the tree), WORK/build-host (IREE's two host tools),
# WORK/build (the CTS), WORK/bin (a link to every HIP CTS binary,
# <variant>_<category>_tests or <variant>_<category>_<chip>_tests),
# WORK/bin-amdgpu (the AMDGPU CTS, cts_<category>_tests or
# cts_<category>_<chip>_tests, and the driver's tests by name, e.g.
# system_test, util_vmem_test, or <chip>_<name> for those built per chip), WORK/executable_probe (what the AMDGPU
# driver registers for an executable), WORK/iree-run-module (IREE's tool
# with the HIP and AMDGPU drivers, for --device=amdgpu), WORK/iree-check-module
# (the runner of IREE's e2e check suites, scripts/iree-e2e/, with the same
# drivers), WORK/iree-e2e-{matmul,conv2d,attention}-test (the runners of its
# generated e2e suites) and WORK/build.log.
# Reruns rebuild only what changed.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$(realpath -m "${1:-$ROOT/target/iree-cts}")
CHIPS=${AMDGPU_HAL_CTS_CHIPS:-gfx942 gfx90a gfx1100 gfx1201 gfx950}
JOBS=${JOBS:-$(nproc)}
CC=${CC:-clang-19}
CXX=${CXX:-clang++-19}
mkdir -p "$WORK"
LOG=$WORK/build.log
: >"$LOG"

die() { echo "build.sh: $*" >&2; exit 1; }
step() {
  local start=$SECONDS
  echo "== $1" >>"$LOG"
  shift
  "$@" >>"$LOG" 2>&1 || { tail -40 "$LOG" >&2; die "failed: $* (log: $LOG)"; }
  echo "[$((SECONDS - start)) s] $*" | cut -c1-200 >>"$WORK/times.txt"
}

for tool in cmake ninja iree-compile "$CC" "$CXX" python3; do
  command -v "$tool" >/dev/null || die "$tool is not on PATH"
done

if [ -n "${IREE_SOURCE_DIR:-}" ]; then
  source_args=(--checkout "$IREE_SOURCE_DIR")
else
  tarball=${IREE_SOURCE_TARBALL:-$ROOT/../shared/iree/iree-b48a5955-src.tar.gz}
  [ -f "$tarball" ] || die "no IREE source: set IREE_SOURCE_DIR or IREE_SOURCE_TARBALL ($tarball is missing)"
  source_args=(--tarball "$tarball")
fi
: >"$WORK/times.txt"
# shellcheck disable=SC2086 # CHIPS is a list
step "source" python3 "$HERE/prepare.py" "${source_args[@]}" "$WORK/src" $CHIPS

COMMON=(-G Ninja -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX"
  -DIREE_ENABLE_LLD=ON -DIREE_BUILD_COMPILER=OFF -DIREE_BUILD_SAMPLES=OFF
  -DIREE_BUILD_BINDINGS_TFLITE=OFF -DIREE_ENABLE_LIBBACKTRACE=OFF
  -DIREE_ERROR_ON_MISSING_SUBMODULES=OFF -DIREE_HAL_DRIVER_DEFAULTS=OFF)

# IREE's host tools: with IREE_HOST_BIN_DIR (how a build without the
# compiler imports the pip iree-compile) the build takes these from there too.
if [ ! -f "$WORK/build-host/build.ninja" ]; then
  step "host configure" cmake -S "$WORK/src" -B "$WORK/build-host" \
    -DCMAKE_BUILD_TYPE=Release -DIREE_BUILD_TESTS=OFF "${COMMON[@]}"
fi
step "host tools" ninja -C "$WORK/build-host" -j"$JOBS" iree-c-embed-data iree-flatcc-cli
mkdir -p "$WORK/hostbin"
ln -sfn "$(command -v iree-compile)" "$WORK/hostbin/iree-compile"
ln -sfn "$WORK/build-host/tools/iree-c-embed-data" "$WORK/hostbin/iree-c-embed-data"
ln -sfn "$WORK/build-host/tools/iree-flatcc-cli" "$WORK/hostbin/iree-flatcc-cli"

# The CTS itself: the HIP and AMDGPU drivers (the chip IREE's own suites
# name is the first of CHIPS; the project's suites take testdata for each).
first_chip=${CHIPS%% *}
step "configure" cmake -S "$WORK/src" -B "$WORK/build" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIREE_BUILD_TESTS=ON "${COMMON[@]}" \
  -DIREE_HAL_DRIVER_HIP=ON -DIREE_HAL_DRIVER_AMDGPU=ON -DIREE_ROCM_TEST_TARGET_CHIP="$first_chip" \
  -DIREE_HOST_BIN_DIR="$WORK/hostbin"

prefix=iree_hal_drivers_hip_cts_amdgpu_hal
targets=()
for variant in shipped all; do
  for category in buffer command_buffer core file queue; do
    targets+=("${prefix}_${variant}_${category}_tests")
  done
  for chip in $CHIPS; do
    for category in dispatch executable queue_dispatch; do
      targets+=("${prefix}_${chip}_${variant}_${category}_tests")
    done
  done
done
# The AMDGPU driver: IREE's CTS (its own list: HAL events unsupported) and
# every test of the driver that opens HSA (the rest are host-only units),
# but two that IREE's CMake build cannot build: util/pm4_dispatch_live_test
# (its DATA names the Bazel label ::pm4_dispatch_test_kernels_gfx1100.so as
# a file) and util/block_pool_test (clang's -Wthread-safety-reference, an
# error in IREE's flags, refuses its lock-free list helpers).
amdgpu=iree_hal_drivers_amdgpu
amdgpu_cts=runtime/src/iree/hal/drivers/amdgpu/cts
for category in buffer command_buffer core file queue; do
  targets+=("${amdgpu}_cts_${category}_tests")
done
# host_queue_command_buffer_test embeds the CTS testdata: built per chip.
AMDGPU_CHIP_TESTS=(host_queue_command_buffer_test)
for chip in $CHIPS; do
  for category in dispatch executable queue_dispatch; do
    targets+=("${amdgpu}_cts_amdgpu_hal_${chip}_${category}_tests")
  done
  for test in "${AMDGPU_CHIP_TESTS[@]}"; do
    targets+=("${amdgpu}_cts_amdgpu_hal_${chip}_${test}")
  done
done
AMDGPU_TESTS=(allocator_test aql_block_processor_test driver_options_test
  executable_test host_queue_pending_test
  host_queue_staging_test host_queue_submission_test semaphore_test
  slab_provider_test system_test util/device_clock_test
  util/device_library_test util/kfd_test util/libaqlprofile_test
  util/libhsa_test util/notification_ring_test util/pm4_program_test
  util/signal_pool_test util/topology_test util/vmem_test)
for test in "${AMDGPU_TESTS[@]}"; do
  targets+=("${amdgpu}_${test//\//_}")
done
targets+=("${amdgpu}_cts_amdgpu_hal_executable_probe")
# IREE's module runner: the drivers this configuration enables (HIP and
# AMDGPU; IREE_HAL_DRIVER_DEFAULTS=OFF leaves out the rest) register
# through iree/hal/drivers/init.c.
targets+=(iree-run-module)
# IREE's check runner: a gtest binary (its tests are a module's exported
# functions) with the check module; IREE declares it only with
# IREE_BUILD_TESTS, which this configuration has.
targets+=(iree-check-module)
# The runners of IREE's generated e2e suites (matmul, conv2d, attention:
# modules from tests/e2e/*/generate_e2e_*.py), linked as WORK/iree-e2e-*-test.
E2E_RUNNERS=(iree-e2e-matmul-test iree-e2e-conv2d-test iree-e2e-attention-test)
for runner in "${E2E_RUNNERS[@]}"; do
  targets+=("iree_tools_testing_e2e_$runner")
done
step "build" ninja -C "$WORK/build" -j"$JOBS" "${targets[@]}"

out=$WORK/build/runtime/src/iree/hal/drivers/hip/cts/amdgpu_hal
rm -rf "$WORK/bin"
mkdir -p "$WORK/bin"
for variant in shipped all; do
  for category in buffer command_buffer core file queue; do
    ln -s "$out/${variant}_${category}_tests" "$WORK/bin/${variant}_${category}_tests"
  done
  for chip in $CHIPS; do
    for category in dispatch executable queue_dispatch; do
      ln -s "$out/$chip/${variant}_${category}_tests" "$WORK/bin/${variant}_${category}_${chip}_tests"
    done
  done
done
amdgpu_out=$WORK/build/runtime/src/iree/hal/drivers/amdgpu
rm -rf "$WORK/bin-amdgpu"
mkdir -p "$WORK/bin-amdgpu"
for category in buffer command_buffer core file queue; do
  ln -s "$WORK/build/$amdgpu_cts/${category}_tests" "$WORK/bin-amdgpu/cts_${category}_tests"
done
for chip in $CHIPS; do
  for category in dispatch executable queue_dispatch; do
    ln -s "$WORK/build/$amdgpu_cts/amdgpu_hal/$chip/${category}_tests" \
      "$WORK/bin-amdgpu/cts_${category}_${chip}_tests"
  done
done
for test in "${AMDGPU_TESTS[@]}"; do
  ln -s "$amdgpu_out/$test" "$WORK/bin-amdgpu/${test//\//_}"
done
for chip in $CHIPS; do
  for test in "${AMDGPU_CHIP_TESTS[@]}"; do
    ln -s "$WORK/build/$amdgpu_cts/amdgpu_hal/$chip/$test" "$WORK/bin-amdgpu/${chip}_${test}"
  done
done
ln -sfn "$WORK/build/$amdgpu_cts/amdgpu_hal/executable_probe" "$WORK/executable_probe"
ln -sfn "$WORK/build/tools/iree-run-module" "$WORK/iree-run-module"
ln -sfn "$WORK/build/tools/iree-check-module" "$WORK/iree-check-module"
for runner in "${E2E_RUNNERS[@]}"; do
  ln -sfn "$WORK/build/tools/testing/e2e/$runner" "$WORK/$runner"
done
cat "$WORK/times.txt"
