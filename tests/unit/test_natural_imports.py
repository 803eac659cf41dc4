"""The verifier never sees the generator's wording: nothing under agents/ imports the natural phrasing.

`drowzee generate factchd --style natural` words responses with `drowzee_core.generate.natural`; a
reader that borrowed its phrase lists (hedges, short answers, year phrases) would be measured on a
round trip again. The import graph is read from the sources with `ast` (every import, also those
inside functions), and checked once at run time through `sys.modules`.
"""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from tests.import_graph import ROOT, imported_names, parse_imports, sources

NATURAL = "drowzee_core.generate.natural"
ALLOWED_IMPORTERS = {"drowzee_core.generate.factchd"}
"""The one module outside the package that may load it: the generator, and only inside a function."""


@cache
def imports(module: str) -> tuple[tuple[str, bool], ...]:
    """(imported module, at top level?) for each import of `module`; `from a import b` gives a and a.b."""
    return tuple(imported_names(module))


def is_natural(name: str) -> bool:
    return name == NATURAL or name.startswith(NATURAL + ".")


def with_parents(name: str) -> list[str]:
    """`a.b.c` and the packages Python runs first: `a`, `a.b`."""
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def top_level_closure(start: str) -> set[str]:
    """Every repository module that importing `start` runs (top-level imports, parent packages included)."""
    seen: set[str] = set()
    todo = with_parents(start)
    while todo:
        mod = todo.pop()
        if mod in seen or mod not in sources():
            continue
        seen.add(mod)
        for name, top in imports(mod):
            if top:
                todo.extend(with_parents(name))
    return seen


AGENTS = [m for m in sources() if m.split(".")[0] in ("agents", "service")]
"""The verifier, and the service that shows its verdicts (the service was under agents/ until the layout issue)."""


def test_the_walk_sees_the_packages() -> None:
    assert len(AGENTS) > 50
    assert NATURAL in sources() and f"{NATURAL}.restyle" in sources()
    assert ("drowzee_core.generate.natural", False) in set(imports("drowzee_core.generate.factchd"))


def test_the_walk_resolves_relative_and_lazy_imports(tmp_path: Path) -> None:
    path = tmp_path / "reader.py"
    path.write_text(
        "from ..generate.natural import words\nimport json\ndef f():\n    from drowzee_core.generate import natural\n",
        "utf-8",
    )
    found = {(i.name, n, i.top) for i in parse_imports(path, "drowzee_core.reading.reader") for n in i.names or ("",)}
    assert ("drowzee_core.generate.natural", "words", True) in found
    assert ("json", "", True) in found
    assert ("drowzee_core.generate", "natural", False) in found
    assert is_natural("drowzee_core.generate.natural.words") and not is_natural("drowzee_core.generate.naturalness")


@pytest.mark.parametrize("module", AGENTS)
def test_no_agents_module_imports_the_natural_phrasing(module: str) -> None:
    direct = sorted({name for name, _top in imports(module) if is_natural(name)})
    assert direct == [], f"{module} imports {direct}: the reader must never see the generator's wording"
    reached = sorted(m for m in top_level_closure(module) if is_natural(m))
    assert reached == [], f"importing {module} loads {reached}"


def test_only_the_generator_imports_the_natural_phrasing_and_only_lazily() -> None:
    importers: dict[str, list[bool]] = {}
    for module in sources():
        if is_natural(module):
            continue
        for name, top in imports(module):
            if is_natural(name):
                importers.setdefault(module, []).append(top)
    assert set(importers) <= ALLOWED_IMPORTERS, sorted(importers)
    assert not any(top for tops in importers.values() for top in tops), "imported at top level: " + str(importers)


@pytest.mark.slow
def test_importing_the_verifier_and_its_reader_loads_no_natural_module() -> None:
    code = (
        "import sys, agents.verifier.runner, agents.reading, agents.reading.candidates.reader,"
        " agents.verifier.nodes.claims, agents.verifier.explain;"
        f"print(sorted(m for m in sys.modules if m.startswith({NATURAL!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"
