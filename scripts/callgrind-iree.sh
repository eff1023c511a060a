#!/usr/bin/env bash
# Deterministic instruction counts of one iree-run-module run on the C
# library, under valgrind's callgrind (wall-clock timings on a shared
# machine are noisy; instruction counts are not): the figures behind each
# speed-up of the interpreter kept in docs/PERFORMANCE.md.
#
#   scripts/callgrind-iree.sh LIB OUT MACHINE IREE-RUN-MODULE-ARGS...
#
# LIB is libamdgpu_sim_ffi.so (any build), OUT the callgrind output file;
# prints the total and the top functions (callgrind_annotate). IREE's
# proactor uses io_uring, which deadlocks under valgrind: the run preloads
# scripts/valgrind/no_io_uring.c (built into target/valgrind-iree/) as
# scripts/valgrind-iree.sh does.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
lib=$(realpath "$1") out=$2 machine=$3
shift 3
iree=$(python3 -c 'import os, iree._runtime_libs as m; print(os.path.join(os.path.dirname(m.__file__), "iree-run-module"))') ||
  { echo "callgrind-iree: pip package iree-base-runtime==3.13.0 is not installed" >&2; exit 1; }
shim=$ROOT/target/valgrind-iree/no_io_uring.so
mkdir -p "$(dirname "$shim")"
[ -f "$shim" ] || ${CC:-cc} -shared -fPIC -O2 -o "$shim" "$ROOT/scripts/valgrind/no_io_uring.c" -ldl
LD_PRELOAD=$shim AMDGPU_SIM_MACHINE=$machine \
  valgrind --tool=callgrind --callgrind-out-file="$out" \
  "$iree" --hip_dylib_path="file:$lib" "$@" >/dev/null 2>"$out.log"
callgrind_annotate --inclusive=no "$out" 2>/dev/null | sed -n '/PROGRAM TOTALS/p;/file:function/,+25p' | cut -c1-180
