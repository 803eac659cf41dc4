"""A question template's claim keeps only names something knows, and drops an article the KB does not write."""

from __future__ import annotations

from agents.reading.claim_types import (
    ClaimOrigin,
    TripleClaim,
)
from agents.reading.mentions.known import Known, names_known, without_article
from drowzee_core.kb.catalog import Catalog


class Store:
    """A KB that knows two names."""

    def resolve(self, name: str, k: int) -> list[int]:
        return [1] if name in ("Norland", "krona") else []


def claim(subject: str, relation: str, obj: str) -> TripleClaim:
    return TripleClaim(id="", text="", origin=ClaimOrigin.QUERY, subject=subject, relation=relation, object=obj)


def test_a_template_claim_with_words_for_names_is_not_named() -> None:
    known = Known(Store(), [])  # type: ignore[arg-type]
    catalog = Catalog.from_toml()
    assert names_known(claim("Norland", "has_currency", "the krona"), known, catalog)
    assert not names_known(claim("Norland is the krona", "has_currency", "it false that"), known, catalog)
    assert names_known(claim("Norland", "born_in_year", "1841"), known, catalog)  # a value is no name


def test_an_article_the_kb_does_not_write_is_dropped() -> None:
    store = Store()
    assert without_article(claim("Norland", "has_currency", "the krona"), store).object == "krona"  # type: ignore[arg-type]
    assert without_article(claim("Norland", "has_currency", "the mark"), store).object == "the mark"  # type: ignore[arg-type]
