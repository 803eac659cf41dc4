"""Supplied evidence in every form: text, lists of texts, [entity, sentence] pairs, KG triples, FactCHD qualifiers."""

from __future__ import annotations

import pytest

from agents.verifier.evidence import MAX_ITEM_CHARS, EvidenceError, normalize_evidence, verbalize_triple
from drowzee_core.records.verdict import MAX_EVIDENCE, EvidenceSource


def test_none_gives_nothing() -> None:
    ev = normalize_evidence(None)
    assert ev.items == [] and ev.triples == []


def test_a_string_is_split_into_paragraphs() -> None:
    ev = normalize_evidence("Paris is in France.\n\nLyon is in France too.")
    assert [e.text for e in ev.items] == ["Paris is in France.", "Lyon is in France too."]
    assert [e.id for e in ev.items] == ["S1", "S2"]
    assert all(e.source == EvidenceSource.SUPPLIED for e in ev.items) and ev.triples == []


def test_triples_go_to_the_scratch_kb_and_are_verbalized() -> None:
    ev = normalize_evidence([["Bölþorn", "part of", "Norse mythology"], "A plain sentence."])
    assert ev.triples == [["Bölþorn", "part of", "Norse mythology"]]
    assert [e.text for e in ev.items] == ["Bölþorn part of Norse mythology.", "A plain sentence."]
    assert ev.items[0].ref == "Bölþorn | part of | Norse mythology"


def test_factchd_qualifier_reads_as_base_triple_with_qualifier() -> None:
    triple = ("['Honshu', 'population', '103000000']", "point in time", "2005")
    assert verbalize_triple(triple) == "Honshu population 103000000 (point in time 2005)."
    ev = normalize_evidence([list(triple)])
    assert ev.triples == [list(triple)]


def test_entity_sentence_pairs_keep_the_entity_as_ref() -> None:
    ev = normalize_evidence([["Lyon", "Lyon is a city in France."]])
    assert ev.items[0].text == "Lyon is a city in France." and ev.items[0].ref == "Lyon" and ev.triples == []


def test_long_items_are_chunked() -> None:
    ev = normalize_evidence(["x" * (MAX_ITEM_CHARS + 10)])
    assert [len(e.text) for e in ev.items] == [MAX_ITEM_CHARS, 10]


def test_bad_items_are_named() -> None:
    with pytest.raises(EvidenceError, match=r"evidence item 2 .* got a list of 4 parts"):
        normalize_evidence(["ok", ["a", "b", "c", "d"]])
    with pytest.raises(EvidenceError, match="the limit is"):
        normalize_evidence(["x"] * (MAX_EVIDENCE + 1))
