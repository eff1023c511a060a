#!/usr/bin/env bash
# Renders `amdgpu-hal topology --dot` of the pictured machines into docs/
# (Graphviz `dot`, Debian package `graphviz`): the presets listed below and
# the captured H200 (fixtures/machines/h200.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --bin amdgpu-hal
bin=target/debug/amdgpu-hal
machines="mi300x-8 mi250x-4 mixed-isa fixtures/machines/h200.toml"
for machine in $machines; do
  name=$(basename "$machine" .toml)
  "$bin" topology --machine "$machine" --dot > "docs/topology-$name.dot"
  dot -Tpng -Gdpi=96 "docs/topology-$name.dot" -o "docs/topology-$name.png"
  rm "docs/topology-$name.dot"
  echo "docs/topology-$name.png"
done
