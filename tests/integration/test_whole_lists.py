"""A list a response gives as whole is refuted by a value it leaves out, where the relation is declared complete.

The relations and names are invented (no catalog or code knows them); the KB is built the way
`drowzee kb load FILE --relations REL.toml` builds it. `dialect` and `trades with` are declared complete,
`patron` is not: its lists never refute a left-out name. Whole lists are said by the relation's noun
(definite, plural or singular), by "only", or by answering a question that asks for every value; hedged
lists ("include", "among others") and indefinite ones ("a dialect of") say only their members.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.verifier.runner import Verifier
from drowzee_core.records.verdict import Decision, VerifyRequest
from tests.integration.user_kb import assert_decided, user_kb_verifier

pytestmark = pytest.mark.integration

RELATIONS = """
[[relation]]
name = "has_dialect"
label = "dialect"
category = "noun_phrase"
complete = true
positive = "A dialect of {s} is {o}."
negative = "{o} is not a dialect of {s}."
question = "Is {o} a dialect of {s}?"

[[relation]]
name = "trades_with"
label = "trades with"
category = "active_verb"
symmetric = true
complete = true
positive = "{s} trades with {o}."
negative = "{s} does not trade with {o}."
question = "Does {s} trade with {o}?"

[[relation]]
name = "has_patron"
label = "patron"
category = "noun_phrase"
positive = "A patron of {s} is {o}."
negative = "{o} is not a patron of {s}."
question = "Is {o} a patron of {s}?"
"""

FACTS = """subject,relation,object
Orvin Bay,has_dialect,Tessic
Orvin Bay,has_dialect,Brannish
Orvin Bay,has_dialect,Olmic
Kelso Point,has_dialect,Tessic
Orvin Bay,trades_with,Harnby
Orvin Bay,trades_with,Kelso Point
Orvin Bay,has_patron,Tova Brenn
Orvin Bay,has_patron,Ansel Krane
"""


@pytest.fixture(scope="module")
def verifier(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Verifier]:
    """A verifier over a KB of the invented relations."""
    with user_kb_verifier(tmp_path_factory.mktemp("whole_lists_kb"), RELATIONS, FACTS) as v:
        yield v


@pytest.mark.parametrize(
    ("query", "response", "decision"),
    [
        ("Tell me about Orvin Bay.", "Orvin Bay's dialects are Tessic and Brannish.", Decision.REFUTED),
        ("Tell me about Orvin Bay.", "Orvin Bay's dialects are Tessic, Brannish and Olmic.", Decision.SUPPORTED),
        ("Tell me about Orvin Bay.", "The dialect of Orvin Bay is Tessic.", Decision.REFUTED),
        ("Tell me about Kelso Point.", "The dialect of Kelso Point is Tessic.", Decision.SUPPORTED),
        ("Tell me about Orvin Bay.", "Tessic is a dialect of Orvin Bay.", Decision.SUPPORTED),
        ("Tell me about Orvin Bay.", "The dialects of Orvin Bay include Tessic and Brannish.", Decision.SUPPORTED),
        ("Who does Orvin Bay trade with?", "Orvin Bay trades only with Harnby.", Decision.REFUTED),
        ("Which ports does Orvin Bay trade with?", "Orvin Bay trades with Harnby.", Decision.REFUTED),
        ("Which ports does Orvin Bay trade with?", "Orvin Bay trades with Harnby, among others.", Decision.SUPPORTED),
        ("Does Orvin Bay trade with Harnby?", "Yes, Orvin Bay trades with Harnby.", Decision.SUPPORTED),
        ("Tell me about Orvin Bay.", "The patrons of Orvin Bay are Tova Brenn.", Decision.SUPPORTED),
    ],
)
def test_whole_lists(verifier: Verifier, query: str, response: str, decision: Decision) -> None:
    """A whole list of a complete relation is refuted by a left-out value; other lists say their members."""
    assert_decided(verifier, query, response, decision)


def test_refutation_says_the_relation_is_declared_complete(verifier: Verifier) -> None:
    """The explanation names the left-out value and says the KB declares the list complete."""
    v = verifier.verify(
        VerifyRequest(id="v", query="Tell me about Orvin Bay.", response="The dialect of Orvin Bay is Tessic.")
    )
    assert v.decision == Decision.REFUTED
    assert "declared complete" in v.explanation and "Brannish" in v.explanation and "Olmic" in v.explanation
