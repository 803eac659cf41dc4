"""The layers import in one direction, and no modules import each other.

records <- kb <- logic <- generate <- {llm, retrieval} <- oracles <- finetune <- agents (reading <-
verifier <- batch <- loop) <- {service, cli}: a module may import its own layer and those below it,
never one above. Every import counts (top level, inside functions, under `if TYPE_CHECKING:`): an
import inside a function is still a dependency, only a later one. The graph is read from the sources
(`tests/import_graph.py`), so the test needs no imports of the product. The `bench/` scripts sit above
all of it: no product module imports them, and they import each other without a cycle.
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest

from tests.import_graph import bench_sources, cycles, layer_cycles, layer_of, module_graph, sources, upward

LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "drowzee_core=",
        "drowzee_core.config",
        "drowzee_core.errors",
        "drowzee_core.lazy",
        "drowzee_core.nlp",
        "drowzee_core.registry",
    ),
    ("prompts",),
    ("drowzee_core.records",),
    ("drowzee_core.kb",),
    ("drowzee_core.logic",),
    ("drowzee_core.generate",),
    ("drowzee_core.llm", "drowzee_core.retrieval"),
    ("drowzee_core.oracles",),
    ("finetune",),
    ("agents.reading=", "agents.reading.claim_types"),
    ("agents.reading.clauses",),
    ("agents.reading.mentions",),
    ("agents.reading.candidates", "agents.reading.templates"),
    ("agents.reading.questions",),
    ("agents.reading.claims",),
    ("agents.reading.evidence",),
    ("agents.verifier",),
    ("agents.batch",),
    ("agents.loop",),
    ("agents=",),
    ("service", "cli"),
)
"""Lowest first; entries of one rank may import each other one way only; `name=` is that module alone."""


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    return module_graph()


def test_every_module_has_a_layer() -> None:
    unplaced = sorted(m for m in sources() if layer_of(m, LAYERS) is None)
    assert unplaced == [], f"modules in no layer (add them to LAYERS): {unplaced}"


def test_the_walk_sees_the_packages(graph: nx.DiGraph) -> None:
    assert graph.number_of_nodes() > 250
    assert graph.has_edge("service.server", "agents.verifier.runner")
    assert graph.has_edge("agents.reading.templates.questions", "agents.reading.templates.set_questions")


def test_no_layer_imports_a_layer_above_it(graph: nx.DiGraph) -> None:
    found = upward(graph, LAYERS)
    assert found == [], "upward imports:\n" + "\n".join(found)


def test_no_two_layers_of_one_rank_import_each_other(graph: nx.DiGraph) -> None:
    assert layer_cycles(graph, LAYERS) == []


def test_no_import_cycles(graph: nx.DiGraph) -> None:
    found = cycles(graph)
    assert found == [], "modules that import each other:\n" + "\n".join(map(str, found))


READING_STAGES = ("clauses", "mentions", "candidates", "questions", "claims", "evidence", "templates")


def _stage(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["agents", "reading"] and len(parts) > 2 and parts[2] in READING_STAGES else None


def test_each_reading_stage_is_entered_through_its_interface(graph: nx.DiGraph) -> None:
    """Outside a stage of the reading floor, code imports the stage's package (its `__all__`), never its modules."""
    bench = module_graph({**sources(), **bench_sources()})
    inside = sorted(
        f"{a} -> {b}"
        for g in (graph, bench)
        for a, b in g.edges
        if (stage := _stage(b)) is not None and b != f"agents.reading.{stage}" and _stage(a) != stage
    )
    assert inside == [], "imports past a stage's interface:\n" + "\n".join(inside)
    assert graph.has_edge("agents.verifier.nodes.claims", "agents.reading.claims")


def test_bench_scripts_import_no_cycle_and_nothing_imports_them() -> None:
    """`bench/` sits above everything: its scripts may import the product and each other, never in a circle."""
    bench = bench_sources()
    assert {"batch_common", "cold_start", "user_kb"} <= set(bench)
    assert not set(bench) & {m.partition(".")[0] for m in sources()}, "a bench script shadows a package"
    graph = module_graph({**sources(), **bench})
    assert graph.has_edge("batch_throughput", "batch_common")  # sibling imports are seen
    found = cycles(graph)
    assert found == [], "modules that import each other:\n" + "\n".join(map(str, found))
    into_bench = sorted(f"{a} -> {b}" for a, b in graph.edges if b in bench and a not in bench)
    assert into_bench == [], "product modules importing bench scripts:\n" + "\n".join(into_bench)


def _tree(tmp_path: Path, files: dict[str, str]) -> nx.DiGraph:
    from tests.import_graph import module_name

    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return module_graph({module_name(p, tmp_path): p for p in sorted(tmp_path.rglob("*.py"))})


def test_the_checks_find_an_upward_import_and_a_cycle(tmp_path: Path) -> None:
    g = _tree(
        tmp_path,
        {
            "drowzee_core/__init__.py": "",
            "drowzee_core/kb/__init__.py": "from drowzee_core.kb import store\n",
            "drowzee_core/kb/store.py": "def f():\n    from drowzee_core.logic.engine import Engine\n",
            "drowzee_core/logic/__init__.py": "",
            "drowzee_core/logic/engine.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from drowzee_core.logic.rules import R\n"
            ),
            "drowzee_core/logic/rules.py": "from drowzee_core.logic.engine import Engine\nimport json\n",
        },
    )
    assert upward(g, LAYERS) == [
        "drowzee_core.kb.store -> drowzee_core.logic.engine (drowzee_core.kb -> drowzee_core.logic)"
    ]
    assert cycles(g) == [["drowzee_core.logic.engine", "drowzee_core.logic.rules"]]
    # `from drowzee_core.kb import store` is the submodule, not a cycle with the package
    assert g.has_edge("drowzee_core.kb", "drowzee_core.kb.store") and not g.has_edge(
        "drowzee_core.kb.store", "drowzee_core.kb"
    )


def test_a_package_that_imports_a_name_of_its_parent_is_a_cycle(tmp_path: Path) -> None:
    g = _tree(
        tmp_path,
        {
            "service/__init__.py": "from service.server import create_app\n__version__ = '1'\n",
            "service/server.py": "def create_app():\n    from service import __version__\n",
        },
    )
    assert cycles(g) == [["service", "service.server"]]
