#!/usr/bin/env bash
# Scaling of `inspect --json` and `load --json` (raw HSACO on the simulated
# 8×MI300X node, every device) with the kernel count: the median wall time
# and mean CPU time (hyperfine; the TSV has both), peak resident memory (/usr/bin/time -v) and, for counts up to
# CALLGRIND_MAX (default 10000), instructions executed (callgrind, which is
# stable on a loaded machine; profiles kept as target/perf/callgrind.*).
# Writes target/perf/scaling.tsv (read by scripts/plot_scaling.py) and prints
# a Markdown table with the cost per kernel.
#
#   scripts/scaling.sh [COUNT...]         # default 1000 10000 50000; RUNS=5
#
# A count whose fixture cannot be generated (no clang-19) is skipped.
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 10000 50000)
source "$(dirname "$0")/perf-common.sh" "${counts[@]}"
runs=${RUNS:-5}
callgrind_max=${CALLGRIND_MAX:-10000}
tsv=$PERF_OUT/scaling.tsv
printf 'kernels\tbytes\tinspect_s\tinspect_rss_kb\tinspect_ir\tload_s\tload_rss_kb\tload_ir\tinspect_cpu_s\tload_cpu_s\n' > "$tsv"
echo "# scaling ($(date -u +%FT%TZ), $(load_summary) at start)"
echo
echo "| kernels | size (MB) | inspect (s) | per kernel (µs) | inspect peak (MB) | inspect instr. | per kernel | load (s) | per kernel (µs) | load peak (MB) | load instr. | per kernel |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${counts[@]}"; do
  hsaco=$FIXTURES/kernels_$n.gfx942.hsaco
  [ -f "$hsaco" ] || { echo "scaling.sh: $hsaco missing; skipping $n" >&2; continue; }
  inspect=("$CLI" inspect --json "$hsaco")
  load=("$CLI" --machine mi300x-8 load --json "$hsaco")
  json=$PERF_OUT/scaling_$n.json
  hyperfine -N --output=pipe --warmup 1 --runs "$runs" --export-json "$json" \
    "${inspect[*]}" "${load[*]}" >/dev/null
  ir_inspect=- ir_load=-
  if [ "$n" -le "$callgrind_max" ] && command -v valgrind >/dev/null; then
    ir_inspect=$(CALLGRIND_LABEL=inspect_$n instructions "${inspect[@]}")
    ir_load=$(CALLGRIND_LABEL=load_$n instructions "${load[@]}")
  fi
  row=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$n" "$(stat -c %s "$hsaco")" \
    "$(median_s "$json" 0)" "$(peak_rss_kb "${inspect[@]}")" "$ir_inspect" \
    "$(median_s "$json" 1)" "$(peak_rss_kb "${load[@]}")" "$ir_load")
  row=$(printf '%s\t%s\t%s' "$row" "$(cpu_s "$json" 0)" "$(cpu_s "$json" 1)")
  echo "$row" >> "$tsv"
  python3 - "$row" <<'PY'
import sys
n, size, ti, mi, ii, tl, ml, il, _, _ = sys.argv[1].split("\t")
n = int(n)
ir = lambda v: ("—", "—") if v == "-" else (f"{int(v)/1e6:,.0f} M", f"{int(v)/n:,.0f}")
(ii, iik), (il, ilk) = ir(ii), ir(il)
print(f"| {n:,} | {int(size)/1e6:.1f} | {float(ti):.4f} | {float(ti)/n*1e6:.1f} | {int(mi)*1024/1e6:.1f} | {ii} | {iik} | "
      f"{float(tl):.3f} | {float(tl)/n*1e6:.1f} | {int(ml)*1024/1e6:.1f} | {il} | {ilk} |")
PY
done
echo
echo "($(load_summary) at end; medians of $runs runs after one warm-up; $tsv)"
