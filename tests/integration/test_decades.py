"""A claim put in a decade ("in the 1730s") is decided by the MTL engine over dated facts and by stored years.

The relations and names are invented (no catalog or code knows them); the KB is built the way
`drowzee kb load FILE --relations REL.toml` builds it. "In the 1790s Orvin Bay used the vell" holds when the
dated fact holds in some year of the ten (`Finally[0, 9]`); "founded in the 1730s" holds when the one stored
founding year is one of them. A decade said without "in the" is no time of the claim.
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
name = "uses_coin"
label = "uses the coin"
category = "active_verb"
positive = "{s} uses the coin {o}."
negative = "{s} does not use the coin {o}."
question = "Does {s} use the coin {o}?"

[[relation]]
name = "founded_in"
label = "founded in"
category = "passive_verb"
functional = true
object_kind = "year"
positive = "{s} was founded in {o}."
negative = "{s} was not founded in {o}."
question = "Was {s} founded in {o}?"
"""

FACTS = """subject,relation,object,start_year,end_year
Orvin Bay,uses_coin,vell,1781,1802
Orvin Bay,uses_coin,orv,1802,
Orvin Bay,founded_in,1736,,
"""


@pytest.fixture(scope="module")
def verifier(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Verifier]:
    """A verifier over a KB of the invented relations."""
    with user_kb_verifier(tmp_path_factory.mktemp("decades_kb"), RELATIONS, FACTS) as v:
        yield v


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        ("In the 1790s Orvin Bay used the coin vell.", Decision.SUPPORTED),
        ("In the 1810s Orvin Bay used the coin vell.", Decision.REFUTED),
        ("In the 1770s Orvin Bay used the coin vell.", Decision.REFUTED),
        ("Orvin Bay was founded in the 1730s.", Decision.SUPPORTED),
        ("Orvin Bay was founded in the 1740s.", Decision.REFUTED),
        ("Orvin Bay was founded in 1736.", Decision.SUPPORTED),
    ],
)
def test_decades(verifier: Verifier, response: str, decision: Decision) -> None:
    """A dated fact at some year of the decade, or a stored year inside it, decides the claim."""
    assert_decided(verifier, "Tell me about Orvin Bay.", response, decision)
