#!/usr/bin/env bash
# Runs IREE's own iree-run-module (pip iree-base-runtime==3.13.0) on the C
# library under valgrind's memcheck: a device listing, a device dump and one
# module run on the w7900 preset. An invalid read or write, or a branch on
# uninitialized memory, anywhere in the process fails the run: the library
# must hand IREE nothing it cannot use.
#
# Leaks are not checked here: IREE's runtime leaves process-lifetime state
# behind (its flag registry, its driver registry), and the simulator's
# report (AMDGPU_SIM_REPORT) is what proves the client released every HIP
# object; tests/it/sim/iree_client.rs checks that on every run.
#
# IREE's proactor uses io_uring, which deadlocks under valgrind (see
# scripts/valgrind/no_io_uring.c): the run preloads a shim that makes
# io_uring_setup fail with EPERM, and IREE falls back to its POSIX proactor.
#
# Usage: scripts/valgrind-iree.sh [MACHINE]   (default w7900)
set -euo pipefail
cd "$(dirname "$0")/.."

machine=${1:-w7900}
command -v valgrind >/dev/null || { echo "valgrind-iree: valgrind is not installed" >&2; exit 1; }
iree=$(python3 -c 'import os, iree._runtime_libs as m; print(os.path.join(os.path.dirname(m.__file__), "iree-run-module"))' 2>/dev/null) ||
  { echo "valgrind-iree: pip package iree-base-runtime==3.13.0 is not installed" >&2; exit 1; }
cargo build -p amdgpu-sim-ffi --quiet
lib=$PWD/target/debug/libamdgpu_sim_ffi.so
shim=$PWD/target/valgrind-iree/no_io_uring.so
mkdir -p "$(dirname "$shim")"
${CC:-cc} -shared -fPIC -O2 -o "$shim" scripts/valgrind/no_io_uring.c -ldl
case $machine in
  w7900|rx7900xtx) processor=gfx1100 ;;
  mi300x-8|mi325x-8|mi300a-4) processor=gfx942 ;;
  mi250x-4|mixed-isa) processor=gfx90a ;;
  *) echo "valgrind-iree: no fixture module for '$machine'" >&2; exit 2 ;;
esac

report=$(mktemp)
trap 'rm -f "$report"' EXIT
run() {
  LD_PRELOAD=$shim AMDGPU_SIM_MACHINE=$machine AMDGPU_SIM_REPORT=$report \
    valgrind --error-exitcode=99 --leak-check=no --track-origins=yes --quiet \
    "$iree" --hip_dylib_path="file:$lib" "$@" >/dev/null
  # Every live-object count is 0 (the call and launch tallies and the
  # fidelity account's instruction counts and the read-back digest aside).
  if [ ! -s "$report" ] ||
    grep -vE '^(launches[a-z_]*|hsa_calls|hip_calls|instructions[a-z_]*|read_back_[a-z]*) |^(injected|kernel) | 0$' "$report"; then
    echo "valgrind-iree: objects left alive after iree-run-module $*" >&2
    exit 1
  fi
  echo "valgrind-iree: clean: iree-run-module $*"
}
run --list_devices
run --dump_devices=hip
run --device=hip://0 --module="fixtures/iree/vmfb/elementwise.$processor.vmfb" \
  --function=elementwise --input=4096xf32=1 --input=4096xf32=2
