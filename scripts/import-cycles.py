#!/usr/bin/env python3
"""Module import cycles of a Rust crate's src/ (ARCHITECTURE.md's layering).

Each file is a module; an edge A -> B is a `crate::`/`super::` path in A's
non-test code naming B (imports of an ancestor or descendant module are
parent/child structure, not edges). Prints every cycle (strongly connected
component of more than one module) and exits 1 if there is one.

usage: scripts/import-cycles.py [SRC_DIR ...]   (default: src)
"""
import os
import re
import sys
from collections import defaultdict

PATH = re.compile(r"\b((?:crate|super)(?:::[A-Za-z_][A-Za-z0-9_]*)+)")


def modules(root):
    mods = {}
    for dirpath, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(dirpath, name)
            parts = os.path.relpath(path, root)[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            if parts and parts[0] == "bin":
                continue  # binaries are crates of their own
            mods["::".join(parts)] = path
    return mods


def resolve(mods, current, path):
    parts = path.split("::")
    if parts[0] == "crate":
        base, parts = [], parts[1:]
    else:
        base = current.split("::")[:-1] if current else []
        parts = parts[1:]
        while parts and parts[0] == "super":
            base, parts = base[:-1], parts[1:]
    for i in range(len(parts), 0, -1):
        candidate = "::".join(base + parts[:i])
        if candidate in mods:
            return candidate
    return None


def graph(mods):
    edges = defaultdict(set)
    for module, path in mods.items():
        text = open(path, encoding="utf-8").read().split("#[cfg(test)]")[0]
        for line in text.splitlines():
            if line.lstrip().startswith("//"):
                continue
            for match in PATH.finditer(line):
                target = resolve(mods, module, match.group(1))
                related = target == module or module.startswith(f"{target}::") or (
                    target or ""
                ).startswith(f"{module}::")
                if target and not related:
                    edges[module].add(target)
    return edges


def cycles(nodes, edges):
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def main():
    status = 0
    for root in sys.argv[1:] or ["src"]:
        mods = modules(root)
        for cycle in cycles(mods, graph(mods)):
            print(f"{root}: import cycle: {' <-> '.join(cycle)}")
            status = 1
        if status == 0:
            print(f"{root}: {len(mods)} modules, no import cycle")
    sys.exit(status)


if __name__ == "__main__":
    main()
