"""A catalog claim said in the supplied triples' own label (`reading.candidates.own_labels`), with a scripted linker.

The names are invented. The linker scores by lemma and scripted WordNet neighbours only (the fake
embedding relates nothing), so what is tested is which claims are relabeled and which way round.
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.reading.candidates.labels import LabelLinker, Related
from agents.reading.candidates.own_labels import relabel
from agents.reading.candidates.reader import nlp
from agents.reading.claim_types import Claim, ClaimOrigin, CommonClaim, TripleClaim
from drowzee_core.kb.catalog import Catalog
from tests.unit.test_question_frames import silent

NEAR = {"father": Related(converse=frozenset({"child"}), broader=frozenset({"parent"}))}
CATALOG = Catalog.from_toml()


def linker() -> LabelLinker:
    return LabelLinker(silent, lambda lemma: NEAR.get(lemma, Related()), min_score=0.5)


def claim(relation: str, subject: str = "Pell Orrin", obj: str = "Tam Orrin") -> TripleClaim:
    return TripleClaim(id="", text="t", origin=ClaimOrigin.TEMPLATE, subject=subject, relation=relation, object=obj)


def supplied_as(claims: Sequence[Claim]) -> tuple[str, str, str] | None:
    """The one claim's `supplied_as` (a triple claim's only)."""
    [c] = claims
    assert isinstance(c, TripleClaim)
    return c.supplied_as


def test_a_converse_label_says_the_claim_the_other_way_round() -> None:
    [c] = relabel([claim("father")], [["Tam Orrin", "child", "Pell Orrin"]], CATALOG, linker, nlp())
    assert isinstance(c, TripleClaim)
    assert c.supplied_as == ("Tam Orrin", "child", "Pell Orrin")
    assert (c.subject, c.relation, c.object) == ("Pell Orrin", "father", "Tam Orrin")  # the user's KB decides this


def test_a_relation_the_triples_use_or_no_label_links_stays() -> None:
    used = [["Pell Orrin", "father", "Tam Orrin"], ["Tam Orrin", "child", "Pell Orrin"]]
    assert supplied_as(relabel([claim("father")], used, CATALOG, linker, nlp())) is None
    unrelated = [["Tam Orrin", "employer", "Vask Mills"]]
    assert supplied_as(relabel([claim("father")], unrelated, CATALOG, linker, nlp())) is None
    assert supplied_as(relabel([claim("father")], [], CATALOG, linker, nlp())) is None


def test_values_and_shared_objects_keep_their_direction() -> None:
    year = claim("born_in_year", obj="1901")
    assert relabel([year], [["Pell Orrin", "child", "Tam Orrin"]], CATALOG, linker, nlp()) == [year]
    common = CommonClaim(
        id="", text="t", origin=ClaimOrigin.TEMPLATE, subject="Pell Orrin", relation="father", object="Sia Orrin"
    )  # "the same father": no converse
    assert relabel([common], [["Tam Orrin", "child", "Pell Orrin"]], CATALOG, linker, nlp()) == [common]


def test_a_label_the_catalog_knows_keeps_the_catalogs_logic() -> None:
    # "mother" is a catalog relation, disjoint with "father": Prolog refutes the claim, no relabel
    triples = [["Pell Orrin", "mother", "Tam Orrin"]]
    near = {"father": Related(same=frozenset({"mother"}))}  # a (wrong) link the linker would make

    def loose() -> LabelLinker:
        return LabelLinker(silent, lambda lemma: near.get(lemma, Related()), min_score=0.5)

    assert supplied_as(relabel([claim("father")], triples, CATALOG, loose, nlp())) is None
