#!/usr/bin/env bash
# Renders `amdgpu-hal topology --dot` of the pictured machines into docs/
# (Graphviz `dot`, Debian package `graphviz`). Every machine file under
# fixtures/machines/ whose name is listed below, plus captured ones
# (fixtures/machines/captured-*.toml) when present.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --bin amdgpu-hal
bin=target/debug/amdgpu-hal
machines="mi300x-8 mi250x-4 mixed-isa"
for file in fixtures/machines/captured-*.toml; do
  [ -e "$file" ] && machines="$machines $file"
done
for machine in $machines; do
  name=$(basename "$machine" .toml)
  backend=sim
  # A HIP-only capture (no HSA agents, e.g. an NVIDIA node) draws through the HIP driver.
  if [ -f "$machine" ] && ! grep -q 'kind = "gpu"' "$machine"; then backend=hip; fi
  "$bin" topology --machine "$machine" --backend "$backend" --dot > "docs/topology-$name.dot"
  dot -Tpng -Gdpi=96 "docs/topology-$name.dot" -o "docs/topology-$name.png"
  rm "docs/topology-$name.dot"
  echo "docs/topology-$name.png"
done
