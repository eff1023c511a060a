# Shared by scripts/compare.sh and scripts/scaling.sh (sourced, not run).
# Sets ROOT, CLI, FIXTURES and PERF_OUT, builds the release CLI and generates
# the large fixtures for the requested kernel counts.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLI=$ROOT/target/release/amdgpu-hal
FIXTURES=$ROOT/target/large-fixtures
PERF_OUT=${PERF_OUT:-$ROOT/target/perf}
mkdir -p "$PERF_OUT"

# /usr/bin/time (GNU time, for -v) is not always installed.
if [ ! -x /usr/bin/time ]; then
  echo "installing GNU time (apt-get install time) for peak-memory figures" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time
fi

# SKIP_BUILD=1 measures the binary already in target/release.
[ -n "${SKIP_BUILD:-}" ] || (cd "$ROOT" && cargo build --release --quiet --bin amdgpu-hal)
"$ROOT/fixtures/large/generate.sh" "$@" >&2

# peak_rss_kb CMD...: the peak resident set of one run, in KiB (stdout discarded).
peak_rss_kb() {
  /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}'
}

# median_s JSON [INDEX]: the median wall time of hyperfine's INDEX-th command, in seconds.
median_s() {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["median"])' "$1" "${2:-0}"
}

# load_summary: a one-line note of the machine's load while we measure.
load_summary() {
  echo "load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
}

# instructions CMD...: instructions executed by one run (valgrind's callgrind;
# stable under load, unlike wall time). Keeps the profile as $PERF_OUT/callgrind.LABEL
# when CALLGRIND_LABEL is set.
instructions() {
  local out=${CALLGRIND_LABEL:+$PERF_OUT/callgrind.$CALLGRIND_LABEL}
  out=${out:-$(mktemp)}
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" 2>&1 >/dev/null |
    awk '/Collected :/ {print $4}'
  [ -n "${CALLGRIND_LABEL:-}" ] || rm -f "$out"
}

# cpu_s JSON [INDEX]: mean user + system CPU time of hyperfine's INDEX-th
# command, in seconds (less sensitive to other processes than wall time).
cpu_s() {
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]; print(r["user"]+r["system"])' "$1" "${2:-0}"
}
