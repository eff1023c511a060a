#!/usr/bin/env bash
# Side by side, in one run and on the same files: `amdgpu-hal inspect --json`
# against `llvm-readelf-19 --notes` (both decode the whole MessagePack
# metadata note) on the generated large HSACOs, plus the wrapped AMD1 made of
# each (inspect only: readelf cannot read it). Reports, per pair and with
# the ratio: the median wall time and the mean CPU time (user + system) of
# RUNS runs (hyperfine, one warm-up), the instructions of one run (valgrind's
# callgrind: stable on a loaded machine), and the peak resident memory of
# one run (/usr/bin/time -v), as a Markdown table;
# hyperfine's JSON goes to target/perf/.
#
#   scripts/compare.sh [COUNT...]        # default 1000 10000; RUNS=10
#
# Needs clang-19/lld-19 (fixtures), llvm-readelf-19 and hyperfine.
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 10000)
source "$(dirname "$0")/perf-common.sh" "${counts[@]}"
runs=${RUNS:-10}
for tool in llvm-readelf-19 hyperfine; do
  command -v $tool >/dev/null || { echo "compare.sh: $tool not found" >&2; exit 1; }
done

echo "# inspect vs llvm-readelf-19 --notes ($(date -u +%FT%TZ), $(load_summary) at start)"
echo
echo "| file | kernels | size (MB) | readelf wall (s) | inspect wall (s) | ratio | readelf CPU (s) | inspect CPU (s) | ratio | readelf instr. | inspect instr. | ratio | readelf peak (MB) | inspect peak (MB) | inspect peak / size |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${counts[@]}"; do
  hsaco=$FIXTURES/kernels_$n.gfx942.hsaco
  [ -f "$hsaco" ] || { echo "compare.sh: $hsaco missing (no clang-19?); skipping $n" >&2; continue; }
  size=$(stat -c %s "$hsaco")
  json=$PERF_OUT/compare_$n.json
  hyperfine -N --output=pipe --warmup 1 --runs "$runs" --export-json "$json" \
    "llvm-readelf-19 --notes $hsaco" "$CLI inspect --json $hsaco" >/dev/null
  t_readelf=$(median_s "$json" 0)
  t_inspect=$(median_s "$json" 1)
  c_readelf=$(cpu_s "$json" 0)
  c_inspect=$(cpu_s "$json" 1)
  i_readelf=- i_inspect=-
  if command -v valgrind >/dev/null; then
    i_readelf=$(instructions llvm-readelf-19 --notes "$hsaco")
    i_inspect=$(instructions "$CLI" inspect --json "$hsaco")
  fi
  m_readelf=$(peak_rss_kb llvm-readelf-19 --notes "$hsaco")
  m_inspect=$(peak_rss_kb "$CLI" inspect --json "$hsaco")
  python3 - "$n" "$size" "$t_readelf" "$t_inspect" "$c_readelf" "$c_inspect" "$i_readelf" "$i_inspect" "$m_readelf" "$m_inspect" <<'PY'
import sys
n, size, tr, ti, cr, ci, ir, ii, mr, mi = sys.argv[1:]
size, tr, ti, cr, ci, mr, mi = int(size), float(tr), float(ti), float(cr), float(ci), int(mr) * 1024, int(mi) * 1024
instr = f"{int(ir)/1e6:,.0f} M | {int(ii)/1e6:,.0f} M | {int(ir)/int(ii):.1f}x" if ir != "-" else "— | — | —"
print(f"| kernels_{n}.gfx942.hsaco | {int(n):,} | {size/1e6:.1f} | {tr:.3f} | {ti:.4f} | {tr/ti:.1f}x | "
      f"{cr:.3f} | {ci:.4f} | {cr/ci:.1f}x | {instr} | {mr/1e6:.0f} | {mi/1e6:.1f} | {mi/size:.2f} |")
PY
  amd1=$FIXTURES/kernels_$n.gfx942.amd1
  if [ -f "$amd1" ]; then
    json=$PERF_OUT/compare_${n}_amd1.json
    hyperfine -N --output=pipe --warmup 1 --runs "$runs" --export-json "$json" \
      "$CLI inspect --json $amd1" >/dev/null
    python3 - "$n" "$(stat -c %s "$amd1")" "$(median_s "$json" 0)" "$(peak_rss_kb "$CLI" inspect --json "$amd1")" <<'PY'
import sys
n, size, ti, mi = sys.argv[1:]
size, ti, mi = int(size), float(ti), int(mi) * 1024
print(f"| kernels_{n}.gfx942.amd1 | {int(n):,} | {size/1e6:.1f} | — | {ti:.4f} | — | — | — | — | — | — | — | — | {mi/1e6:.1f} | {mi/size:.2f} |")
PY
  fi
done
echo
echo "($(load_summary) at end; medians of $runs runs after one warm-up; peak = max RSS of one run)"
