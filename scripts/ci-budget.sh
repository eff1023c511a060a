#!/usr/bin/env bash
# The CPU time (user + system, children included: /usr/bin/time) of each
# IREE part of the README's test command, run as CI's tests run them, with
# IREE's compiler (iree-compile) apart from the runs on the simulated node:
#
#   cts        IREE's HIP CTS on three presets, both lists and modes
#              (tests/it/sim/iree_cts.rs; no compiles: the testdata is
#              built with IREE)
#   e2e        IREE's e2e check suites on three chips
#              (tests/it/sim/iree_e2e.rs, iree_e2e_suites_pass_...)
#   generated  the generated suites' CI subset (generated-ci.txt)
#   new        the newest presets' subset (new-presets-ci.txt)
#   threads    the check suites and the generated subset on 1 and 4 kernel
#              threads, their read-back digests compared
#              (iree_e2e.rs, scripts/iree-e2e/threads-identical.py)
#   diff       the program generator's smoke, seeds 0..19
#              (tests/it/sim/iree_diff.rs)
#
#   scripts/ci-budget.sh [LIB]
#
# LIB: the C library the tests run (default target/debug/libamdgpu_sim_ffi.so,
# what `cargo test` builds). Environment:
#   IREE_CTS   IREE's build (scripts/iree-cts/build.sh's; default target/iree-cts)
#   E2E_WORK   run.py's work folder, its module cache (default target/iree-e2e);
#              COLD=1 compiles into a fresh one under OUT instead
#   OUT        logs and scratch (default target/ci-budget)
#   PARTS      the parts to time (default "cts e2e generated new threads diff")
#   JOBS       processes at once (default: the cores; CI has 2)
#
# An e2e part is timed twice: `run.py --compile-only` (every compile, or only
# the cache's checks when the cache is warm) and `run.py` (the runs, every
# module then cached). The generator's smoke compiles into a cache of its
# own: timed with an empty cache (compiles and runs) and again with the cache
# it filled (runs only); its compile time is the difference. Its runs include
# IREE's CPU reference (local-task) beside the simulated node.
#
# Prints one row per part and phase: CPU seconds (user, system, both), wall
# seconds (meaningless on a shared machine; recorded) and the log.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LIB=$(realpath "${1:-$ROOT/target/debug/libamdgpu_sim_ffi.so}")
IREE_CTS=$(realpath "${IREE_CTS:-$ROOT/target/iree-cts}")
OUT=${OUT:-$ROOT/target/ci-budget}
PARTS=${PARTS:-cts e2e generated new threads diff}
JOBS=${JOBS:-$(nproc)}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
if [ "${COLD:-0}" = 1 ]; then
  E2E_WORK=$OUT/e2e-cold
  rm -rf "$E2E_WORK"
else
  E2E_WORK=${E2E_WORK:-$ROOT/target/iree-e2e}
fi
command -v /usr/bin/time >/dev/null || { echo "ci-budget: GNU time (Debian: time) is not installed" >&2; exit 1; }
[ -f "$LIB" ] || { echo "ci-budget: no library at $LIB" >&2; exit 1; }

# The caller's simulator settings would change what is timed.
unset AMDGPU_SIM_FAULTS AMDGPU_SIM_ON_FAULT AMDGPU_SIM_KERNELS AMDGPU_SIM_THREADS AMDGPU_SIM_TRACE

printf '%-10s %-8s %9s %9s %9s %9s  %s\n' part phase user_s sys_s cpu_s wall_s log
# time_part PART PHASE COMMAND...: one row.
time_part() {
  local part=$1 phase=$2
  shift 2
  local log=$OUT/$part-$phase.log times=$OUT/$part-$phase.time
  /usr/bin/time -f '%U %S %e' -o "$times" "$@" >"$log" 2>&1 || {
    echo "ci-budget: $part $phase failed (see $log)" >&2
    return 1
  }
  read -r user sys wall <"$times"
  awk -v p="$part" -v f="$phase" -v u="$user" -v s="$sys" -v w="$wall" -v l="$log" \
    'BEGIN { printf "%-10s %-8s %9.1f %9.1f %9.1f %9.1f  %s\n", p, f, u, s, u + s, w, l }'
}

# run.py with the arguments tests/it/sim/iree_e2e.rs gives it.
E2E=(python3 "$ROOT/scripts/iree-e2e/run.py" "$LIB" --tools "$IREE_CTS" --iree-src "$IREE_CTS/src"
  --work "$E2E_WORK" --jobs "$JOBS")
suites() { # the --suite patterns of a list file
  sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$ROOT/scripts/iree-e2e/$1" | while read -r p; do
    printf -- '--suite\n%s\n' "$p"
  done
}
mapfile -t GENERATED < <(suites generated-ci.txt)
mapfile -t NEW < <(suites new-presets-ci.txt)

for part in $PARTS; do
  case $part in
  cts)
    time_part cts run python3 "$ROOT/scripts/iree-cts/run.py" "$LIB" --bin "$IREE_CTS/bin" \
      --out "$OUT/cts" --hang-after 120 --jobs "$JOBS" \
      --preset mi300x-8=gfx942 --preset mi250x-4=gfx90a --preset w7900=gfx1100
    ;;
  e2e)
    time_part e2e compile "${E2E[@]}" --compile-only --json "$OUT/e2e-compile.json"
    time_part e2e run "${E2E[@]}" --json "$OUT/e2e.json"
    ;;
  generated)
    time_part generated compile "${E2E[@]}" --compile-only --generated "${GENERATED[@]}" --json "$OUT/generated-compile.json"
    time_part generated run "${E2E[@]}" --generated "${GENERATED[@]}" --json "$OUT/generated.json"
    ;;
  new)
    time_part new compile "${E2E[@]}" --compile-only --generated --preset r9700-4=gfx1201 \
      --preset mi355x-8=gfx950 "${NEW[@]}" --json "$OUT/new-compile.json"
    time_part new run "${E2E[@]}" --generated --preset r9700-4=gfx1201 --preset mi355x-8=gfx950 \
      "${NEW[@]}" --json "$OUT/new.json"
    ;;
  threads)
    time_part threads run python3 "$ROOT/scripts/iree-e2e/threads-identical.py" "$LIB" \
      --threads 1 --threads 4 --tools "$IREE_CTS" --iree-src "$IREE_CTS/src" --work "$E2E_WORK" \
      --jobs "$JOBS" --generated --suite '*/check_*' "${GENERATED[@]}"
    ;;
  diff)
    iree_run_module=$(python3 -c 'import os, iree._runtime_libs as m; print(os.path.join(os.path.dirname(m.__file__), "iree-run-module"))')
    rm -rf "$OUT/diff"
    for phase in cold cached; do
      time_part diff "$phase" python3 "$ROOT/scripts/iree-diff/run.py" --seeds 0..19 --lib "$LIB" \
        --jobs "$JOBS" --cache "$OUT/diff/cache" --keep "$OUT/diff/keep-$phase" \
        --iree-run-module "$iree_run_module"
    done
    ;;
  *)
    echo "ci-budget: no part '$part' (cts e2e generated new threads diff)" >&2
    exit 2
    ;;
  esac
done
