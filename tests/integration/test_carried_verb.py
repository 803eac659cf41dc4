"""A verb a statement is read with as a user's relation keeps that meaning in the rest of the response.

The relations and names are invented (no catalog or code knows them); the KB is built the way
`drowzee kb load FILE --relations REL.toml` builds it. "Vell Reef was mapped by Tova Brenn" reads as
`surveyed_by` (WordNet relates the verbs); "It was mapped in 1736" then says "It was surveyed in 1736",
which the declared `surveyed_in` reads and Prolog decides. Alone, "mapped in 1736" reads as nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.verifier.runner import Verifier
from drowzee_core.records.verdict import Decision
from tests.integration.user_kb import assert_decided, user_kb_verifier

pytestmark = pytest.mark.integration

RELATIONS = """
[[relation]]
name = "surveyed_by"
label = "surveyed by"
category = "passive_verb"
functional = true
positive = "{s} was surveyed by {o}."
negative = "{s} was not surveyed by {o}."
question = "Was {s} surveyed by {o}?"

[[relation]]
name = "surveyed_in"
label = "surveyed in"
category = "passive_verb"
functional = true
object_kind = "year"
positive = "{s} was surveyed in {o}."
negative = "{s} was not surveyed in {o}."
question = "Was {s} surveyed in {o}?"
"""

FACTS = """subject,relation,object
Vell Reef,surveyed_by,Tova Brenn
Vell Reef,surveyed_in,1736
Orvin Bay,surveyed_by,Ansel Krane
Orvin Bay,surveyed_in,1802
"""


@pytest.fixture(scope="module")
def verifier(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Verifier]:
    """A verifier over a KB of the invented relations."""
    with user_kb_verifier(tmp_path_factory.mktemp("carried_kb"), RELATIONS, FACTS) as v:
        yield v


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        ("Vell Reef was mapped by Tova Brenn. It was mapped in 1736.", Decision.SUPPORTED),
        ("Vell Reef was mapped by Tova Brenn in 1736.", Decision.SUPPORTED),
        ("Vell Reef was mapped by Tova Brenn. It was mapped in 1802.", Decision.REFUTED),
        # alone, "mapped in" reads as nothing: no statement said what the verb means
        ("Vell Reef was mapped in 1736.", Decision.UNDECIDED),
        # another verb: what "named" means here is never read, so the year stays open
        ("Vell Reef was mapped by Tova Brenn. It was named in 1802.", Decision.UNDECIDED),
        # the same verb about a name the read statement did not relate
        ("Vell Reef was mapped by Tova Brenn. Orvin Bay was mapped in 1736.", Decision.UNDECIDED),
    ],
)
def test_a_verb_read_as_a_relation_is_read_so_in_the_other_statements(
    verifier: Verifier, response: str, decision: Decision
) -> None:
    assert_decided(verifier, "Who surveyed Vell Reef?", response, decision)
