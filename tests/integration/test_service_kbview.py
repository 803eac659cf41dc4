"""The Knowledge base tab's queries and file loads on a small KB file, with the real Prolog engine."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from agents.verifier.services import Services
from agents.verifier.settings import VerifierSettings
from drowzee_core.errors import CatalogError, KBError, LoadError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.writer import KBWriter
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.provenance import read_sidecar
from service import kbload, kbview
from service.warmup import warm_pair

pytestmark = pytest.mark.integration
T = TypeVar("T")

GEO = [
    ("Paris", "located_in", "France"),
    ("France", "located_in", "Europe"),
    ("Lyon", "located_in", "France"),
    ("France", "has_capital", "Paris"),
    ("France", "shares_border_with", "Germany"),
    ("France", "on_continent", "Europe"),
    ("Paris Saint-Germain", "located_in", "Paris"),
    ("18th arrondissement", "located_in", "Paris"),
    ("Montmartre", "located_in", "18th arrondissement"),
]


@pytest.fixture()
def services(tmp_path: Path) -> Iterator[Services]:
    """Services over a fresh KB file (each test may write to it)."""
    path = tmp_path / "kb.sqlite"
    with KBStore(path, create=True) as store:
        writer = KBWriter(store, Catalog.from_toml(), auto_relations=True)
        for s, r, o in GEO:
            writer.triple(writer.entity(s), r, writer.entity(o), domain="geography", source="test")
        writer.flush()
    svc = Services(VerifierSettings(kb=path, cache=False))
    yield svc
    svc.close()


def on_kb(services: Services, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run `fn(services, ...)` on the KB thread, as `Runtime.kb_call` does."""
    return services.gate.run(lambda: fn(services, *args, **kwargs))


def prove(services: Services, s: str, r: str, o: str) -> ProofStatus:
    return on_kb(services, lambda svc: svc.reasoner.prove(s, r, o).status)


def test_search_ranks_exact_matches_then_prefixes_then_substrings(services: Services) -> None:
    hits = on_kb(services, kbview.search_entities, "paris", 10)
    assert [h.key for h in hits] == ["Paris", "Paris Saint-Germain"]
    paris = hits[0]
    assert paris.facts == 4 and paris.domains == ["geography"] and paris.kind == "entity"
    assert [h.key for h in on_kb(services, kbview.search_entities, "rance")] == ["France"]
    assert on_kb(services, kbview.search_entities, "zzz") == []
    assert [h.key for h in on_kb(services, kbview.search_entities, "%")] == []  # LIKE wildcards are literal


@pytest.mark.parametrize(
    ("text", "limit", "message"),
    [("", 5, "is empty"), ("x" * 301, 5, "the limit is 300"), ("Paris", 0, "must be in [1, 100]")],
)
def test_search_refuses_bad_input_with_a_fix(services: Services, text: str, limit: int, message: str) -> None:
    with pytest.raises(kbview.KBViewError, match=message.replace("[", r"\[")):
        on_kb(services, kbview.search_entities, text, limit)


def test_entity_facts_are_verbalized_in_both_directions(services: Services) -> None:
    res = on_kb(services, kbview.entity_facts, "Paris", 10)
    assert res.entity.key == "Paris" and not res.truncated
    by_ref = {f.ref: (f.text, f.direction) for f in res.facts}
    assert by_ref["Paris|located_in|France"] == ("Paris is located in France.", "subject")
    assert by_ref["France|has_capital|Paris"][1] == "object"
    assert by_ref["Paris Saint-Germain|located_in|Paris"][1] == "object"
    assert on_kb(services, kbview.entity_facts, "Paris", 1).truncated
    with pytest.raises(kbview.KBViewError, match="search for it"):
        on_kb(services, kbview.entity_facts, "Atlantis")


def test_derived_facts_are_not_stored_and_each_has_its_proof(services: Services) -> None:
    res = on_kb(services, kbview.derived_facts, "Paris", 50)
    got = {(f.subject_key, f.relation, f.object_key): f for f in res.facts}
    assert got["Paris", "capital_of", "France"].rule == "inverse"
    assert got["France", "contains", "Paris"].rule == "inverse"
    located = got["Paris", "located_in", "Europe"]
    assert located.rule == "transitive" and located.text == "Paris is located in Europe."
    assert located.proof.leaves() == [("Paris", "located_in", "France"), ("France", "located_in", "Europe")]
    assert got["Paris", "on_continent", "Europe"].rule == "composite:continent_of_capital"
    assert got["Montmartre", "located_in", "Paris"].rule == "transitive"  # incoming, two hops
    assert got["Paris", "contains", "Montmartre"].rule == "transitive"
    assert not set(got) & set(GEO)  # stored facts are not "derived"
    france = on_kb(services, kbview.derived_facts, "France", 50)
    assert any(f.relation == "shares_border_with" and f.rule == "symmetric" for f in france.facts)
    assert on_kb(services, kbview.derived_facts, "Paris", 1).truncated


def _csv(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


def test_loaded_facts_are_provable_old_ones_still_are_and_nothing_is_duplicated(
    services: Services, tmp_path: Path
) -> None:
    assert prove(services, "Paris", "located_in", "Europe") == ProofStatus.SUPPORTED  # Prolog loaded first
    before = on_kb(services, kbview.kb_summary)
    file = _csv(
        tmp_path,
        "more.csv",
        "subject,relation,object\nBerlin,located_in,Germany\nGermany,located_in,Europe\nBonn,located_in,\n",
    )
    res = on_kb(services, kbload.load_kb_file, file, "csv", "geography")
    assert (res.accepted, res.new_triples, res.rejected) == (2, 2, 1)
    assert str(res.errors[0]) == f"{file}:4: missing or empty object"
    assert prove(services, "Berlin", "located_in", "Europe") == ProofStatus.SUPPORTED  # new, by transitivity
    assert prove(services, "Paris", "located_in", "Europe") == ProofStatus.SUPPORTED  # old
    after = on_kb(services, kbview.kb_summary)
    assert after.triples == before.triples + 2 and after.fingerprint == res.fingerprint != before.fingerprint
    sidecar = read_sidecar(Path(after.path))
    assert sidecar is not None and sidecar.kb_fingerprint == res.fingerprint and sidecar.params["format"] == "csv"
    again = on_kb(services, kbload.load_kb_file, file, "csv", "geography")
    assert (again.new_triples, again.fingerprint) == (0, res.fingerprint)
    prolog_facts = on_kb(services, lambda svc: svc.reasoner.engine.count("t(_, _, _)"))
    assert prolog_facts == after.triples  # reloading resets the module: no duplicate facts
    derived = on_kb(services, kbview.derived_facts, "Berlin", 50)
    assert ("Berlin", "located_in", "Europe") in {(f.subject_key, f.relation, f.object_key) for f in derived.facts}


def test_prolog_load_keeps_the_running_kb_provable(services: Services, tmp_path: Path) -> None:
    assert prove(services, "Paris", "located_in", "Europe") == ProofStatus.SUPPORTED
    file = _csv(tmp_path, "facts.pl", "located_in(marseille, 'France').\nthis is not prolog\n")
    res = on_kb(services, kbload.load_kb_file, file, "prolog")
    assert res.accepted == 1 and res.rejected == 1 and res.errors[0].line == 2
    assert prove(services, "marseille", "located_in", "Europe") == ProofStatus.SUPPORTED
    assert prove(services, "Paris", "located_in", "Europe") == ProofStatus.SUPPORTED


def test_an_unreadable_file_writes_nothing_and_prolog_still_answers(services: Services, tmp_path: Path) -> None:
    before = on_kb(services, kbview.kb_summary)
    file = _csv(tmp_path, "bad.csv", "from,to\nParis,France\n")
    with pytest.raises(LoadError, match="header must name subject, relation, object"):
        on_kb(services, kbload.load_kb_file, file, "csv")
    assert on_kb(services, kbview.kb_summary) == before
    assert prove(services, "Paris", "located_in", "Europe") == ProofStatus.SUPPORTED


@pytest.mark.parametrize(
    ("name", "body", "fmt", "domain", "message"),
    [
        ("gone.csv", None, "csv", "general", "no such file"),
        ("empty.csv", "", "csv", "general", "is empty"),
        ("big.csv", "subject,relation,object\n" + "a,b,c\n" * 50, "csv", "general", "the limit is 100"),
        ("a.csv", "subject,relation,object\n", "xlsx", "general", "choose one of csv, jsonl, prolog"),
        ("a.csv", "subject,relation,object\n", "csv", "geo graphy", "letters, digits"),
    ],
)
def test_load_refuses_bad_input_with_a_fix(
    services: Services, tmp_path: Path, name: str, body: str | None, fmt: str, domain: str, message: str
) -> None:
    path = tmp_path / name if body is None else _csv(tmp_path, name, body)
    with pytest.raises(kbview.KBViewError, match=message) as info:
        on_kb(services, kbload.load_kb_file, path, fmt, domain, max_bytes=100)
    assert isinstance(info.value, KBError)


def test_the_tab_builds_and_escapes_kb_text(tmp_path: Path) -> None:
    import gradio as gr

    from service.runtime import Runtime
    from service.settings import ServiceSettings
    from service.ui import kb, kb_html

    def no_checker() -> Any:
        raise AssertionError("building the tab must not load the verifier")

    with gr.Blocks() as demo, gr.Tabs():
        kb.tab(Runtime(ServiceSettings(jobs_dir=tmp_path), no_checker))
    ids = {getattr(b, "elem_id", None) for b in demo.blocks.values()}
    wanted = {"kb-search", "kb-results", "kb-prove-subject", "kb-prove-relation", "kb-prove-object", "kb-prove-button"}
    assert wanted | {"kb-proof", "kb-load-file", "kb-load-report", "kb-stats", "kb-facts", "kb-derived"} <= ids
    hit = kbview.EntityHit(key="k<1>", label="<script>x</script>", kind="entity", facts=0)
    html = kb_html.entity_html(hit, ["a&b"])
    assert "<script>" not in html and "&lt;script&gt;" in html and "a&amp;b" in html


RELATIONS = """
[[relation]]
name = "tends"
label = "tends"
category = "active_verb"
functional = true
positive = "{s} tends {o}."
negative = "{s} does not tend {o}."
question = "Does {s} tend {o}?"
"""


def test_a_service_started_on_a_new_kb_file_creates_it_on_the_first_load(tmp_path: Path) -> None:
    """A user starts the service on a KB that does not exist yet and loads their data with its relations."""
    facts = tmp_path / "garden.csv"
    rows = "Ivo Marsh,tends,North Plot\nAda Finch,tends,South Plot\nIvo Marsh,grows,Leeks\n"
    facts.write_text(f"subject,relation,object\n{rows}", encoding="utf-8")
    declared = tmp_path / "relations.toml"
    declared.write_text(RELATIONS, encoding="utf-8")
    svc = Services(VerifierSettings(kb=tmp_path / "new" / "kb.sqlite", cache=False))
    try:
        res = on_kb(svc, kbload.load_kb_file, facts, "csv", relations=declared)
        assert (res.accepted, res.declared, res.undeclared) == (3, ["tends"], ["grows"])
        assert prove(svc, "Ivo Marsh", "tends", "South Plot") == ProofStatus.CONTRADICTED  # functional
    finally:
        svc.close()


def test_a_bad_declaration_file_loads_nothing(services: Services, tmp_path: Path) -> None:
    facts = tmp_path / "more.csv"
    facts.write_text("subject,relation,object\nNice,located_in,France\n", encoding="utf-8")
    declared = tmp_path / "relations.toml"
    declared.write_text(RELATIONS.replace("functional = true", "functionl = true"), encoding="utf-8")
    before = on_kb(services, lambda s: s.store.stats().triples)
    with pytest.raises(CatalogError, match=r"unknown key 'functionl'; did you mean 'functional'"):
        on_kb(services, kbload.load_kb_file, facts, "csv", relations=declared)
    assert on_kb(services, lambda s: s.store.stats().triples) == before


def test_the_warm_up_pair_states_the_first_stored_fact(services: Services) -> None:
    pair = on_kb(services, lambda s: warm_pair(s))
    assert pair is not None and pair.response == "Paris is located in France."
