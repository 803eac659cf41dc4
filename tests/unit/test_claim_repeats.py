"""A response's claims hold each claim once (`agents.reading.claims.response.without_repeats`)."""

from __future__ import annotations

from agents.reading.claim_types import ClaimOrigin, TextClaim
from agents.reading.claims.response import without_repeats


def test_a_claim_read_twice_from_one_span_is_kept_once() -> None:
    a = TextClaim(id="", text="Tova Brenn founded Orvin.", span=(0, 40), origin=ClaimOrigin.SENTENCE)
    again = TextClaim(id="", text="Tova Brenn founded Orvin.", span=(0, 40), origin=ClaimOrigin.SENTENCE)
    elsewhere = TextClaim(id="", text="Tova Brenn founded Orvin.", span=(41, 70), origin=ClaimOrigin.SENTENCE)
    other = TextClaim(id="", text="Orvin lies in Norland.", span=(0, 40), origin=ClaimOrigin.SENTENCE)
    assert without_repeats([a, again, other, elsewhere]) == [a, other, elsewhere]
