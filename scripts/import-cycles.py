#!/usr/bin/env python3
"""Module import cycles of a Rust crate's src/ (ARCHITECTURE.md's layering).

Each file is a module; an edge A -> B is a `crate::`/`super::` path in A's
non-test code naming B, in any form (`use crate::b::X`, grouped
`use crate::{b, c::{d, e}}` over several lines, a path in an expression);
imports of an ancestor or descendant module are parent/child structure, not
edges. Prints every cycle (strongly connected component of more than one
module) and exits 1 if there is one.

usage: scripts/import-cycles.py [SRC_DIR ...]   (default: every workspace
       member's src/, as CI runs it)
"""
import os
import re
import sys
from collections import defaultdict

START = re.compile(r"\b(?:crate|super)\s*::")
TOKEN = re.compile(r"\s*(::|[{},*]|[A-Za-z_][A-Za-z0-9_]*)")
LINE_COMMENT = re.compile(r"//[^\n]*")


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


def use_paths(text, pos, prefix):
    """The paths of the use tree (or path expression) at `pos`: `a::b`,
    `a::{b, c::{d, e}}`, `a::{self, *}` and `x as y` spread over any number of
    lines; returns them and where the tree ends."""
    parts = list(prefix)
    while True:
        m = TOKEN.match(text, pos)
        if not m:
            return [parts], pos
        tok = m.group(1)
        if tok == "{":
            pos, paths = m.end(), []
            while True:
                m = TOKEN.match(text, pos)
                if not m:
                    return paths, pos
                if m.group(1) == "}":
                    return paths, m.end()
                if m.group(1) == ",":
                    pos = m.end()
                    continue
                found, end = use_paths(text, pos, parts)
                if end == pos:  # not a use tree: stop rather than loop
                    return paths, pos
                paths, pos = paths + found, end
        if tok == "*":
            return [parts], m.end()
        if not tok[0].isalpha() and tok[0] != "_":
            return [parts], pos
        parts.append(tok)
        pos = m.end()
        after = TOKEN.match(text, pos)
        if after and after.group(1) == "as":
            alias = TOKEN.match(text, after.end())
            return [parts], alias.end() if alias else after.end()
        if not after or after.group(1) != "::":
            return [parts], pos
        pos = after.end()


def graph(mods):
    edges = defaultdict(set)
    for module, path in mods.items():
        text = open(path, encoding="utf-8").read().split("#[cfg(test)]")[0]
        text = LINE_COMMENT.sub("", text)
        for start in START.finditer(text):
            if text[: start.start()].rstrip().endswith("::"):
                continue  # the `super` of `super::super::`, parsed with the first
            head = text[start.start():start.end()].split(":")[0].strip()
            for parts in use_paths(text, start.end(), [head])[0]:
                target = resolve(mods, module, "::".join(parts))
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


def workspace_sources():
    """Every workspace member's src/, from the root Cargo.toml's members."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "Cargo.toml"), encoding="utf-8") as f:
        text = f.read()
    members = re.search(r"^members\s*=\s*\[([^\]]*)\]", text, re.M)
    names = re.findall(r'"([^"]+)"', members.group(1)) if members else ["."]
    return [os.path.relpath(os.path.join(root, name, "src")) for name in names]


def main():
    status = 0
    for root in sys.argv[1:] or workspace_sources():
        mods = modules(root)
        found = cycles(mods, graph(mods))
        for cycle in found:
            print(f"{root}: import cycle: {' <-> '.join(cycle)}")
            status = 1
        if not found:
            print(f"{root}: {len(mods)} modules, no import cycle")
    sys.exit(status)


if __name__ == "__main__":
    main()
