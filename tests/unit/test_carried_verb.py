"""A verb a response uses for a read relation, carried to its other statements (`agents.reading.claims.carried`).

Real spaCy parses; the relations and names are invented.
"""

from __future__ import annotations

import pytest
from spacy.tokens import Doc

from agents.reading.candidates.reader import nlp
from agents.reading.claims.carried import carried, declared_forms, usage
from agents.reading.mentions.finder import mentions
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import RelationSpec, ValueKind


def _spec(name: str, positive: str, kind: ValueKind = ValueKind.ENTITY, **more: object) -> RelationSpec:
    said = {"positive": positive, "negative": positive, "question": positive}
    label = name.replace("_", " ")
    return RelationSpec.model_validate(
        {"name": name, "label": label, "category": "passive_verb"} | said | more | {"object_kind": kind}
    )


CATALOG = Catalog(
    [
        _spec("charted_by", "{s} was charted by {o}.", inverse_of="charted"),
        _spec("charted", "{s} charted {o}.", category="active_verb", inverse_of="charted_by"),
        _spec("charting_year", "{s} was charted in {o}.", ValueKind.YEAR),
        _spec("population", "The population of {s} is {o}.", ValueKind.QUANTITY, category="noun_phrase"),
    ]
)


def test_the_declared_verb_of_a_relation_and_its_inverse_per_form() -> None:
    forms = declared_forms(CATALOG, "charted_by", nlp())
    assert forms[""] == "chart"
    assert forms["VBN"] == "charted"
    assert declared_forms(CATALOG, "population", nlp()) == {}  # a copula carries no relation
    assert declared_forms(CATALOG, "no_such_relation", nlp()) == {}


def _usages() -> list:  # type: ignore[type-arg]
    forms = declared_forms(CATALOG, "charted_by", nlp())
    u = usage(nlp()("Vell Reef was mapped by Tova Brenn."), forms, ["Vell Reef", "Tova Brenn"])
    assert u is not None and u.lemma == "map"
    return [u]


@pytest.mark.parametrize(
    ("sentence", "topic", "said"),
    [
        ("Vell Reef was mapped in 1736.", None, "Vell Reef was charted in 1736."),
        ("It was mapped in 1736.", "Vell Reef", "It was charted in 1736."),  # the pronoun stands for a read name
    ],
)
def test_the_same_verb_about_the_same_name_is_said_with_the_declared_verb(
    sentence: str, topic: str | None, said: str
) -> None:
    assert carried(nlp()(sentence), _usages(), topic) == said


@pytest.mark.parametrize(
    ("sentence", "topic"),
    [
        ("Orvin Bay was mapped in 1736.", None),  # another name: the verb may mean another thing there
        ("It was mapped in 1736.", "Orvin Bay"),  # the pronoun stands for a name the read statement did not relate
        ("Vell Reef was named in 1736.", None),  # another verb
        ("Vell Reef is large.", None),  # no main verb but the copula
    ],
)
def test_nothing_is_carried_elsewhere(sentence: str, topic: str | None) -> None:
    assert carried(nlp()(sentence), _usages(), topic) is None


def test_a_statement_already_worded_with_the_declared_verb_carries_nothing() -> None:
    forms = declared_forms(CATALOG, "charted_by", nlp())
    assert usage(nlp()("Vell Reef was charted by Tova Brenn."), forms, ["Vell Reef", "Tova Brenn"]) is None


def test_a_name_may_hold_its_possessor() -> None:
    known = {"Brenn's conjecture", "Brenn", "Tova Pym"}.__contains__
    doc = nlp()("Brenn's conjecture was proved by Tova Pym.")
    names = [m.text for m in mentions(doc, known) if m.kind == ValueKind.ENTITY]
    assert names == ["Brenn's conjecture", "Tova Pym"]
    doc = nlp()("Brenn's proof was long.")  # no such name: the possessor alone
    assert [m.text for m in mentions(doc, known)] == ["Brenn"]


def test_a_passive_relation_with_no_declared_inverse_is_also_read_actively() -> None:
    from agents.reading.candidates.lexicon import AGENT, SLOT_O, SLOT_S, Lexicon

    lexicon = Lexicon.from_catalog(CATALOG, nlp())
    alone = Catalog([_spec("surveyed_by", "{s} was surveyed by {o}.")])
    surveyed = {(p.items, p.passive) for p in Lexicon.from_catalog(alone, nlp()).patterns}
    assert ((SLOT_O, "survey", SLOT_S), False) in surveyed  # "Tova Brenn surveyed Vell Reef", active only
    assert ((SLOT_S, "survey", AGENT, SLOT_O), True) in surveyed
    # "charted" is declared as the inverse: its own templates say the active voice, no variant is added
    charted_by = {p.items for p in lexicon.patterns if p.relation == "charted_by"}
    assert (SLOT_O, "chart", SLOT_S) not in charted_by


def test_a_name_the_parse_splits_is_found_as_its_whole_run_of_nominal_words() -> None:
    words = ["Who", "proved", "the", "odd", "lattice", "theorem", "?"]
    # a parse that makes "the odd lattice" a chunk and "theorem" an adjective of its own
    doc = Doc(
        nlp().vocab,
        words=words,
        pos=["PRON", "VERB", "DET", "ADJ", "NOUN", "ADJ", "PUNCT"],
        deps=["nsubj", "ROOT", "det", "amod", "nsubj", "oprd", "punct"],
        heads=[1, 1, 4, 4, 5, 1, 1],
    )
    assert [c.text for c in doc.noun_chunks] == ["Who", "the odd lattice"]
    known = {"odd lattice theorem", "lattice"}
    found = mentions(doc, lambda n: n.lower() in known)
    assert [m.text for m in found] == ["odd lattice theorem"]  # the whole run, not the known part inside it


def test_a_name_after_a_preposition_fills_no_direct_object_slot() -> None:
    from agents.reading.candidates.lexicon import SLOT_O, SLOT_S, Lexicon
    from agents.reading.candidates.reader import read

    alone = Catalog([_spec("surveyed_by", "{s} was surveyed by {o}.")])
    lexicon = Lexicon.from_catalog(alone, nlp())
    assert [p.direct for p in lexicon.patterns if p.items == (SLOT_O, "survey", SLOT_S)] == [True]
    # a statement and its question say the same direct object: one pattern, not a direct and an indirect one
    active = RelationSpec(
        name="charts",
        label="charts",
        category="active_verb",
        positive="{s} charted {o}.",
        negative="{s} did not chart {o}.",
        question="Did {s} chart {o}?",
    )
    charts = [
        p.direct
        for p in Lexicon.from_catalog(Catalog([active]), nlp()).patterns
        if p.items == (SLOT_S, "chart", SLOT_O)
    ]
    assert charts == [True]
    names = {"tova brenn", "vell reef", "orvin bay"}

    def known(n: str) -> bool:
        return n.lower() in names

    said = read(nlp()("Tova Brenn surveyed Vell Reef."), lexicon, known)
    assert [(r.subject, r.relation, r.object) for r in said] == [("Vell Reef", "surveyed_by", "Tova Brenn")]
    # "at Orvin Bay" says where, not what was surveyed: no reading takes it as the surveyed thing
    assert read(nlp()("Tova Brenn surveyed it at Orvin Bay."), lexicon, known) == []
