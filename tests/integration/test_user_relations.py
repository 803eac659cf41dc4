"""A user's own relations, read from their declaration alone, in five wordings each, and decided by Prolog.

The relations and names are invented here (no catalog or code knows them); the KB is built the way
`drowzee kb load FILE --relations REL.toml` builds it. Each relation is said active, passive, possessive,
as a noun phrase and as a question answered "Yes"; with the stored value the pair is supported, with
another value the functional relation refutes it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.verifier.runner import Verifier
from drowzee_core.records.verdict import Decision, VerifyRequest
from tests.integration.user_kb import user_kb_verifier

pytestmark = pytest.mark.integration

RELATIONS = """
[[relation]]
name = "painted_by"
label = "painted by"
category = "passive_verb"
functional = true
positive = "{s} was painted by {o}."
negative = "{s} was not painted by {o}."
question = "Was {s} painted by {o}?"
phrase = "the painter of {s}"

[[relation]]
name = "coaches"
label = "coaches"
category = "active_verb"
functional = true
positive = "{s} coaches {o}."
negative = "{s} does not coach {o}."
question = "Does {s} coach {o}?"

[[relation]]
name = "curator"
label = "curator"
category = "noun_phrase"
functional = true
positive = "The curator of {s} is {o}."
negative = "The curator of {s} is not {o}."
question = "Is {o} the curator of {s}?"
phrase = "the curator of {s}"

[[relation]]
name = "opened_in"
label = "opened in"
category = "passive_verb"
functional = true
object_kind = "year"
positive = "{s} opened in {o}."
negative = "{s} did not open in {o}."
question = "Did {s} open in {o}?"
phrase = "the opening year of {s}"
"""

FACTS = """subject,relation,object
The Salt Lantern,painted_by,Iris Quay
Dusk Regatta,painted_by,Moss Keller
Tova Renn,coaches,Gull Rovers
Abel Frost,coaches,Kestrel Athletic
Brine Museum,curator,Olek Dunn
Tidewater Gallery,curator,Sela Marsh
Brine Museum,opened_in,1931
Tidewater Gallery,opened_in,1968
"""

ASK = "Tell me about it."
# (relation, wording, query, response with the stored value, response with another value)
WORDINGS = [
    ("painted_by", "active", ASK, "Iris Quay painted The Salt Lantern.", "Moss Keller painted The Salt Lantern."),
    (
        "painted_by",
        "passive",
        ASK,
        "The Salt Lantern was painted by Iris Quay.",
        "The Salt Lantern was painted by Moss Keller.",
    ),
    (
        "painted_by",
        "possessive",
        ASK,
        "The Salt Lantern's painter is Iris Quay.",
        "The Salt Lantern's painter is Moss Keller.",
    ),
    (
        "painted_by",
        "noun phrase",
        ASK,
        "The painter of The Salt Lantern is Iris Quay.",
        "The painter of The Salt Lantern is Moss Keller.",
    ),
    ("painted_by", "question", "Did Iris Quay paint The Salt Lantern?", "Yes.", None),
    ("painted_by", "question", "Did Moss Keller paint The Salt Lantern?", None, "Yes."),
    ("coaches", "active", ASK, "Tova Renn coaches the Gull Rovers.", "Tova Renn coaches Kestrel Athletic."),
    (
        "coaches",
        "passive",
        ASK,
        "The Gull Rovers are coached by Tova Renn.",
        "Kestrel Athletic is coached by Tova Renn.",
    ),
    ("coaches", "possessive", ASK, "The Gull Rovers' coach is Tova Renn.", "Kestrel Athletic's coach is Tova Renn."),
    (
        "coaches",
        "noun phrase",
        ASK,
        "The coach of the Gull Rovers is Tova Renn.",
        "The coach of Kestrel Athletic is Tova Renn.",
    ),
    ("coaches", "question", "Does Tova Renn coach the Gull Rovers?", "Yes, she does.", None),
    ("coaches", "question", "Does Tova Renn coach Kestrel Athletic?", None, "Yes, she does."),
    ("curator", "active", ASK, "Olek Dunn curates the Brine Museum.", "Sela Marsh curates the Brine Museum."),
    (
        "curator",
        "passive",
        ASK,
        "The Brine Museum is curated by Olek Dunn.",
        "The Brine Museum is curated by Sela Marsh.",
    ),
    (
        "curator",
        "possessive",
        ASK,
        "The Brine Museum's curator is Olek Dunn.",
        "The Brine Museum's curator is Sela Marsh.",
    ),
    (
        "curator",
        "noun phrase",
        ASK,
        "The curator of the Brine Museum is Olek Dunn.",
        "The curator of the Brine Museum is Sela Marsh.",
    ),
    ("curator", "question", "Is Olek Dunn the curator of the Brine Museum?", "Yes.", None),
    ("curator", "question", "Is Sela Marsh the curator of the Brine Museum?", None, "Yes."),
    ("opened_in", "active", ASK, "The Brine Museum opened in 1931.", "The Brine Museum opened in 1968."),
    ("opened_in", "passive", ASK, "The Brine Museum was opened in 1931.", "The Brine Museum was opened in 1968."),
    (
        "opened_in",
        "possessive",
        ASK,
        "The Brine Museum's opening year is 1931.",
        "The Brine Museum's opening year is 1968.",
    ),
    (
        "opened_in",
        "noun phrase",
        ASK,
        "The opening year of the Brine Museum is 1931.",
        "The opening year of the Brine Museum is 1968.",
    ),
    ("opened_in", "question", "Did the Brine Museum open in 1931?", "Yes.", None),
    ("opened_in", "question", "Did the Brine Museum open in 1968?", None, "Yes."),
]
CASES = [
    pytest.param(query, response, Decision.SUPPORTED if good else Decision.REFUTED, id=f"{rel}-{wording}-{tag}")
    for rel, wording, query, right, wrong in WORDINGS
    for response, good, tag in ((right, True, "right"), (wrong, False, "wrong"))
    if response is not None
]


@pytest.fixture(scope="module")
def verifier(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Verifier]:
    """A verifier over a KB of the invented relations, loaded as `kb load --relations` loads it."""
    with user_kb_verifier(tmp_path_factory.mktemp("user_kb"), RELATIONS, FACTS) as v:
        yield v


@pytest.mark.parametrize(("query", "response", "decision"), CASES)
def test_each_wording_of_a_declared_relation_is_decided(
    verifier: Verifier, query: str, response: str, decision: Decision
) -> None:
    v = verifier.verify(VerifyRequest(id="w", query=query, response=response))
    assert v.decision == decision, (v.explanation, [(c.status, c.text) for c in v.claims])


def test_only_the_users_relations_are_read_on_their_kb(verifier: Verifier) -> None:
    """A bundled relation the KB has no fact of reads nothing there ("shares a border" is not theirs)."""
    names = {r.name for r in verifier.services.catalog}
    assert names == {"painted_by", "coaches", "curator", "opened_in"}


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        ("The Brine Museum opened before the Tidewater Gallery.", Decision.SUPPORTED),
        ("The Tidewater Gallery is older than the Brine Museum.", Decision.REFUTED),
        ("The curator of the Brine Museum was born in Port Sable.", Decision.UNDECIDED),  # no relation says it
    ],
)
def test_comparisons_by_year_and_what_stays_open(verifier: Verifier, response: str, decision: Decision) -> None:
    v = verifier.verify(VerifyRequest(id="c", query=ASK, response=response))
    assert v.decision == decision, (v.explanation, [(c.status, c.text) for c in v.claims])


def test_a_description_resolved_through_the_kb_shows_its_hop(verifier: Verifier) -> None:
    response = "The painter of The Salt Lantern painted Dusk Regatta."  # Iris Quay did not: Moss Keller did
    v = verifier.verify(VerifyRequest(id="h", query=ASK, response=response))
    assert v.decision == Decision.REFUTED, (v.explanation, [(c.status, c.text) for c in v.claims])
    assert "Salt Lantern was painted by Iris Quay." in [c.text for c in v.claims]  # the hop, proved
