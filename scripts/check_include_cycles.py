#!/usr/bin/python3
"""Finds #include cycles among the project's headers.

  python3 scripts/check_include_cycles.py [FOLDER ...]     (default: measure)

Reads every header (.h) of the repository, resolves its quoted includes the way the build
does ("layoutopt/<library>/<file>.h" through each library's include/ folder, anything else
relative to the including file's folder or its library's src/ folder) and reports every
cycle that passes through a header under one of the FOLDERs. Angle-bracket includes are
third-party and ignored. Exits 1 when a cycle is found, 0 otherwise.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = {"build", "build-asan", "out", ".git", "data"}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


def headers():
    for path in ROOT.rglob("*.h"):
        if not SKIP.intersection(path.relative_to(ROOT).parts):
            yield path


def include_roots():
    # Every library's public include/ folder.
    return [p for p in ROOT.rglob("include") if p.is_dir() and not SKIP.intersection(p.relative_to(ROOT).parts)]


def resolve(name, including, roots):
    # The including file's folder, then its own library's src/ and include/ (private headers
    # such as "pbqp/reductions.h"), then every public include/ folder.
    own = [folder / sub for folder in including.parents for sub in ("src", "include")]
    for base in [including.parent] + own + roots:
        candidate = base / name
        if candidate.is_file():
            return candidate.resolve()
    return None


def graph_of(files, roots):
    edges = {}
    for path in files:
        text = path.read_text(errors="replace")
        targets = (resolve(name, path, roots) for name in INCLUDE.findall(text))
        edges[path.resolve()] = sorted({t for t in targets if t is not None and t.suffix == ".h"})
    return edges


def strongly_connected(edges):
    """Tarjan's algorithm, iterative: the components with a cycle (two or more headers, or
    one that includes itself)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(edges.get(start, [])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges.get(child, []))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges.get(node, []):
                    found.append(sorted(component))
    return found


def main(argv):
    folders = [(ROOT / folder).resolve() for folder in (argv or ["measure"])]
    files = list(headers())
    edges = graph_of(files, include_roots())
    checked = [f for f in edges if any(folder in f.parents for folder in folders)]
    cycles = [c for c in strongly_connected(edges) if any(any(folder in f.parents for folder in folders) for f in c)]
    for cycle in cycles:
        print("include cycle among:")
        for member in cycle:
            print("  " + str(member.relative_to(ROOT)))
    names = ", ".join(str(folder.relative_to(ROOT)) for folder in folders)
    print(f"{len(checked)} headers under {names} checked ({len(edges)} in the repository read): "
          f"{len(cycles)} include cycle{'s' if len(cycles) != 1 else ''}")
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
