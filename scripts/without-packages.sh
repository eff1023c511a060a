#!/usr/bin/env bash
# Runs a command as if some packages were not installed: every file the
# packages installed is hidden (an overlay over the directory holding it,
# with a whiteout per file, in a private mount namespace; the system itself
# is not touched). This is how the README's test command is checked for a
# machine without them on one that has CI's packages:
#
#   scripts/without-packages.sh -- cargo test --workspace --features real
#   scripts/without-packages.sh libamdhip64-5 -- cargo test --features real --test it real::
#   scripts/without-packages.sh pip:iree-base-runtime -- cargo test --test it sim::iree_client::
#
# A PACKAGE is a Debian package name, or `pip:NAME` for a Python package of
# the `python3` on PATH (its files under site-packages and its scripts).
# With no package named before `--`, it hides every package `.ci/run`
# installs and what they pulled in that a fresh Debian 12 machine lacks
# (LLVM 19, the ROCm libraries, rocRAND, hipRAND and rocSPARSE, rocminfo,
# Graphviz, valgrind, and the pip packages). `--list` prints the optional
# packages, one a line, and exits.
# Needs root (unshare, mount, mknod).
set -euo pipefail

# The optional packages: what .ci/run installs, each of which a test may
# need (tests/it/support/requires.rs names them in its skip lines).
optional=(clang-19 lld-19 llvm-19 llvm-22 libhsa-runtime64-1 libamdhip64-5 libamdhip64-dev
    libhsa-runtime-dev rocminfo graphviz valgrind librocrand1 libhiprand1 librocsparse0
    pip:iree-base-runtime pip:iree-base-compiler pip:cmake pip:ninja pip:numpy
    pip:holistictraceanalysis pip:pytest pip:triton pip:hip-python)
if [ "${1:-}" = "--list" ]; then
    printf '%s\n' "${optional[@]}"
    exit 0
fi

pkgs=()
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
    pkgs+=("$1")
    shift
done
[ "${1:-}" = "--" ] && shift
if [ "$#" -eq 0 ]; then
    echo "usage: $0 [PACKAGE...] -- COMMAND [ARG...]   (or: $0 --list)" >&2
    exit 2
fi
if [ "${#pkgs[@]}" -eq 0 ]; then
    pkgs=("${optional[@]}" llvm-19-tools llvm-19-linker-tools llvm-19-runtime
        llvm-19-dev libllvm19 libclang-cpp19 libclang-common-19-dev libclang1-19
        libhsakmt1)
fi

# Every installed file of the packages, as `ROOT<TAB>PATH-UNDER-ROOT`: the
# overlay goes on ROOT (/usr for Debian's files; site-packages, or the
# scripts' bin directory, for pip's).
list=$(mktemp)
trap 'rm -f "$list"' EXIT
for p in "${pkgs[@]}"; do
    case $p in
    pip:*)
        # The package's files, and each directory wholly its own as one
        # entry: a directory left empty would still import (a namespace
        # package), as if the package were there.
        python3 - "${p#pip:}" <<'PY' || true
import os, subprocess, sys
info = subprocess.run([sys.executable, "-m", "pip", "show", "-f", sys.argv[1]],
                      capture_output=True, text=True)
if info.returncode != 0:
    sys.exit(0)
lines = info.stdout.splitlines()
location = next(l.split(": ", 1)[1] for l in lines if l.startswith("Location: "))
files = [l.strip() for l in lines[lines.index("Files:") + 1:] if l.strip()]
paths = {os.path.normpath(os.path.join(location, f)) for f in files}
owned = set()
for path in sorted(paths):
    d = os.path.dirname(path)
    while d.startswith(location + "/") and d not in owned:
        inside = {os.path.join(r, n) for r, ds, fs in os.walk(d) for n in fs}
        if not inside or not inside <= paths:
            break
        owned.add(d)
        d = os.path.dirname(d)
def hidden(path):
    d = os.path.dirname(path)
    while d in owned:
        if os.path.dirname(d) not in owned:
            return d
        d = os.path.dirname(d)
    return path
for path in sorted({hidden(p) for p in paths}):
    if path.startswith(location + "/"):
        print(f"{location}\t{path[len(location) + 1:]}")
    else:
        print(f"{os.path.dirname(path)}\t{os.path.basename(path)}")
PY
        ;;
    *)
        dpkg -L "$p" 2>/dev/null | sed -e 's#^/lib/#/usr/lib/#' -e 's#^/bin/#/usr/bin/#' \
            -e 's#^/sbin/#/usr/sbin/#' | grep '^/usr/' | while read -r f; do
            printf '/usr\t%s\n' "${f#/usr/}"
        done
        ;;
    esac
done | sort -u | while IFS=$'\t' read -r root f; do
    # dpkg lists directories too, which other packages share: only its
    # files go; pip's wholly owned directories were chosen above.
    if [ -f "$root/$f" ] || [ -L "$root/$f" ] || { [ "$root" != /usr ] && [ -d "$root/$f" ]; }; then
        printf '%s\t%s\n' "$root" "$f"
    fi
done >"$list"

exec unshare --mount --propagation private -- bash -c '
set -euo pipefail
scratch=$(mktemp -d)
mount -t tmpfs tmpfs "$scratch"
n=0
for root in $(cut -f1 "$1" | sort -u); do
    n=$((n + 1))
    mkdir "$scratch/upper$n" "$scratch/work$n"
    grep -F "$root	" "$1" | while IFS="	" read -r r f; do
        [ "$r" = "$root" ] || continue
        mkdir -p "$scratch/upper$n/$(dirname "$f")"
        mknod "$scratch/upper$n/$f" c 0 0
    done
    mount -t overlay overlay -o "lowerdir=$root,upperdir=$scratch/upper$n,workdir=$scratch/work$n" "$root"
done
shift
exec "$@"
' bash "$list" "$@"
