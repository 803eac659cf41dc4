"""The repository's import graph, read from the sources with `ast` (every import: top level, inside
functions and under `if TYPE_CHECKING:`), for the tests that keep the layers in one direction.

An edge `a -> b` joins two repository modules: `import b`, `from b import name` (to `b`), or
`from b import sub` where `b.sub` is a module (to `b.sub`: Python runs `b/__init__` first, but that is
no dependency on the names `b` defines). Relative imports are resolved against the importing module.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("prompts", "drowzee_core", "finetune", "agents", "service", "cli")
"""The first-party packages (pyproject's `packages.find`)."""


@dataclass(frozen=True, slots=True)
class Import:
    """One import statement's source as written: the dotted module path, the names it takes, where it stands."""

    name: str
    names: tuple[str, ...]
    """`from name import these` (empty for `import name`)."""
    top: bool
    """At module level (also inside a top-level `if` / `try`): it runs when the module is imported."""
    typing: bool
    """Under `if TYPE_CHECKING:`: only type checkers follow it."""


def module_name(path: Path, root: Path = ROOT) -> str:
    """`agents/verifier/graph.py` -> `agents.verifier.graph`; a package's `__init__.py` names the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def sources(packages: Sequence[str] = PACKAGES) -> dict[str, Path]:
    """Module name -> file, for every `.py` file of `packages`."""
    return {module_name(p): p for pkg in packages for p in sorted((ROOT / pkg).rglob("*.py"))}


@cache
def bench_sources() -> dict[str, Path]:
    """Module name -> file for the `bench/` scripts, each under its bare name (`batch_common`).

    The scripts are no package: each puts `bench/` first on `sys.path` and imports its siblings by their
    bare names (`from batch_common import ROOT`), which is how their edges resolve here.
    """
    return {p.stem: p for p in sorted((ROOT / "bench").glob("*.py"))}


def parse_imports(path: Path, module: str) -> Iterator[Import]:
    """The imports of the file `path` of `module`, relative ones resolved."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    top = {id(n) for n in tree.body} | {
        id(x) for n in tree.body if isinstance(n, ast.If | ast.Try) for x in ast.walk(n) if x is not n
    }
    typing = {
        id(x)
        for n in ast.walk(tree)
        if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)
        for x in ast.walk(n)
        if x is not n
    }
    for node in ast.walk(tree):
        level, hint = id(node) in top, id(node) in typing
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(alias.name, (), level, hint)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            yield Import(base, tuple(a.name for a in node.names), level, hint)


@cache
def imports(module: str) -> tuple[Import, ...]:
    """The imports of a repository module (see `parse_imports`)."""
    return tuple(parse_imports(sources()[module], module))


def imported_names(module: str) -> Iterator[tuple[str, bool]]:
    """(dotted name, at top level?) for each import of `module`; `from a import b` gives `a` and `a.b`."""
    for imp in imports(module):
        yield imp.name, imp.top
        for name in imp.names:
            yield f"{imp.name}.{name}", imp.top


def resolve(name: str, known: Mapping[str, object]) -> str | None:
    """The longest prefix of `name` that is a known module (`a.b.func` -> `a.b`); None outside the repository."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def module_graph(files: Mapping[str, Path] | None = None) -> nx.DiGraph:
    """Repository modules and the imports between them (each edge's `top` / `typing` flags kept)."""
    files = sources() if files is None else files
    graph = nx.DiGraph()
    graph.add_nodes_from(files)
    for module, path in files.items():
        for imp in parse_imports(path, module):
            targets = [f"{imp.name}.{n}" for n in imp.names if f"{imp.name}.{n}" in files]
            if len(targets) < len(imp.names) or not imp.names:
                targets.append(resolve(imp.name, files) or "")
            for target in targets:
                if target and target != module:
                    graph.add_edge(module, target, top=imp.top, typing=imp.typing)
    return graph


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    """Each group of modules that import each other (a strongly connected component of two or more), sorted."""
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)


def layer_of(module: str, layers: Sequence[Sequence[str]]) -> tuple[int, str] | None:
    """(rank, entry) of the most specific layer entry that holds `module`; None when no entry does.

    An entry holds the module of its name and, unless it ends in `=`, the modules below it
    (`drowzee_core=` is the package's `__init__` only).
    """
    best: tuple[int, str] | None = None
    for rank, entries in enumerate(layers):
        for entry in entries:
            name = entry.rstrip("=")
            holds = module == name or (not entry.endswith("=") and module.startswith(name + "."))
            if holds and (best is None or len(name) > len(best[1].rstrip("="))):
                best = (rank, entry)
    return best


def upward(graph: nx.DiGraph, layers: Sequence[Sequence[str]]) -> list[str]:
    """Imports from a lower layer to a higher one, as `a -> b (lower layer -> higher layer)`."""
    out = []
    for a, b in sorted(graph.edges):
        la, lb = layer_of(a, layers), layer_of(b, layers)
        if la is not None and lb is not None and lb[0] > la[0]:
            out.append(f"{a} -> {b} ({la[1]} -> {lb[1]})")
    return out


def layer_cycles(graph: nx.DiGraph, layers: Sequence[Sequence[str]]) -> list[list[str]]:
    """Layer entries of one rank that import each other (e.g. `llm` <-> `retrieval`)."""
    entries = nx.DiGraph()
    for a, b in graph.edges:
        la, lb = layer_of(a, layers), layer_of(b, layers)
        if la is not None and lb is not None and la[1] != lb[1]:
            entries.add_edge(la[1], lb[1])
    return cycles(entries)
