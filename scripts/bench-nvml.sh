#!/usr/bin/env bash
# The H200 measurement of issue 23 (docs/PERFORMANCE.md, "NVML listings"):
# what `nvidia-smi topo -m` and `amdgpu-hal devices|topology --backend cuda`
# print, the documents of two builds compared, and an interleaved timing
# (whole processes, ROUNDS rounds, medians in ms).
#
# usage: scripts/bench-nvml.sh NEW_BINARY [OLD_BINARY]   (OUT: output folder)
set -u
NEW=$1
OLD=${2:-}
ROUNDS=${ROUNDS:-20}
OUT=${OUT:-/tmp/bench-nvml}
mkdir -p "$OUT"
{
    date -u
    uname -r
    nproc
    nvidia-smi --query-gpu=name,uuid,driver_version,memory.total,memory.reserved,pci.bus_id,compute_cap --format=csv
} >"$OUT/machine.txt" 2>&1
nvidia-smi topo -m >"$OUT/nvidia-smi-topo.txt" 2>&1
builds=(new)
[ -n "$OLD" ] && builds+=(old)
for build in "${builds[@]}"; do
    bin=$NEW
    [ "$build" = old ] && bin=$OLD
    for cmd in devices topology; do
        "$bin" "$cmd" --backend cuda >"$OUT/$build.$cmd.txt" 2>&1
        "$bin" "$cmd" --backend cuda --json >"$OUT/$build.$cmd.json" 2>&1
    done
    "$bin" topology --backend cuda --dot >"$OUT/$build.topology.dot" 2>&1
done
"$NEW" devices --backend cuda -vv >/dev/null 2>"$OUT/new.devices.vv.txt"
if [ -n "$OLD" ]; then
    for f in devices.txt devices.json topology.txt topology.json topology.dot; do
        if cmp -s "$OUT/new.$f" "$OUT/old.$f"; then echo "$f identical"; else echo "$f differs"; diff "$OUT/old.$f" "$OUT/new.$f"; fi
    done >"$OUT/compare.txt"
fi
names=(nvidia-smi new-devices new-topology)
[ -n "$OLD" ] && names+=(old-devices old-topology)
run() {
    case $1 in
        nvidia-smi) nvidia-smi topo -m ;;
        new-devices) "$NEW" devices --backend cuda ;;
        new-topology) "$NEW" topology --backend cuda ;;
        old-devices) "$OLD" devices --backend cuda ;;
        old-topology) "$OLD" topology --backend cuda ;;
    esac
}
: >"$OUT/times.txt"
for _ in $(seq "$ROUNDS"); do
    for name in "${names[@]}"; do
        t0=$(date +%s%N)
        run "$name" >/dev/null 2>&1
        t1=$(date +%s%N)
        echo "$name $(((t1 - t0) / 1000))" >>"$OUT/times.txt"
    done
done
for name in "${names[@]}"; do
    grep "^$name " "$OUT/times.txt" | awk '{print $2}' | sort -n |
        awk -v n="$name" '{v[NR]=$1} END {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; printf "%-14s median %.1f ms  min %.1f  max %.1f  (n=%d)\n", n, m/1000, v[1]/1000, v[NR]/1000, NR}'
done | tee "$OUT/medians.txt"
