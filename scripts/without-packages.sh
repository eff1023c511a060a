#!/usr/bin/env bash
# Runs a command as if some Debian packages were not installed: every file
# the packages installed under /usr is hidden (an overlay over /usr with a
# whiteout per file, in a private mount namespace; the system itself is not
# touched). This is how the README's test command is checked for a fresh
# machine on one that has CI's packages:
#
#   scripts/without-packages.sh -- cargo test --workspace --features real
#
# With no package named before `--`, it hides every package `.ci/run`
# installs and what they pulled in that a fresh Debian 12 machine lacks
# (LLVM 19, the ROCm libraries, rocminfo, Graphviz, valgrind).
# Needs root (unshare, mount, mknod).
set -euo pipefail

pkgs=()
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
    pkgs+=("$1")
    shift
done
[ "${1:-}" = "--" ] && shift
if [ "$#" -eq 0 ]; then
    echo "usage: $0 [PACKAGE...] -- COMMAND [ARG...]" >&2
    exit 2
fi
if [ "${#pkgs[@]}" -eq 0 ]; then
    pkgs=(clang-19 lld-19 llvm-19 llvm-19-tools llvm-19-linker-tools llvm-19-runtime
        llvm-19-dev libllvm19 libclang-cpp19 libclang-common-19-dev libclang1-19
        libhsa-runtime64-1 libhsa-runtime-dev libamdhip64-5 libamdhip64-dev
        libhsakmt1 rocminfo graphviz valgrind)
fi

# Files (and symlinks) of the installed ones among them, as paths under /usr.
list=$(mktemp)
trap 'rm -f "$list"' EXIT
for p in "${pkgs[@]}"; do
    dpkg -L "$p" 2>/dev/null || true
done | sed -e 's#^/lib/#/usr/lib/#' -e 's#^/bin/#/usr/bin/#' -e 's#^/sbin/#/usr/sbin/#' |
    grep '^/usr/' | sort -u | while read -r f; do
    if [ -f "$f" ] || [ -L "$f" ]; then echo "${f#/usr/}"; fi
done >"$list"

exec unshare --mount --propagation private -- bash -c '
set -euo pipefail
scratch=$(mktemp -d)
mount -t tmpfs tmpfs "$scratch"
mkdir "$scratch/upper" "$scratch/work"
while read -r f; do
    mkdir -p "$scratch/upper/$(dirname "$f")"
    mknod "$scratch/upper/$f" c 0 0
done <"$1"
mount -t overlay overlay -o "lowerdir=/usr,upperdir=$scratch/upper,workdir=$scratch/work" /usr
shift
exec "$@"
' bash "$list" "$@"
