"""Sentence pieces of explanations (`agents.verifier.explain_clauses`, `templates_kb.clause`).

Refuted claims are said as clauses.
"""

from __future__ import annotations

import pytest

from agents.verifier.explain_clauses import negation
from drowzee_core.generate.templates_kb import clause


@pytest.mark.parametrize(
    ("claim", "said"),
    [
        (
            "In 1990, Westland uses the currency Euro.",
            "So it is not the case that in 1990, Westland uses the currency Euro.",
        ),
        ("It opened in 1935.", "So it is not the case that it opened in 1935."),
        ("The capital of Norland is Vell.", "So it is not the case that the capital of Norland is Vell."),
        ("Inara was born in 1901.", "So it is not the case that Inara was born in 1901."),  # a name keeps its capital
        ("Theodor Lind was born in 1901.", "So it is not the case that Theodor Lind was born in 1901."),
        ("No.", 'The answer "No" is therefore wrong.'),
    ],
)
def test_a_refuted_claim_reads_as_one_sentence(claim: str, said: str) -> None:
    assert negation(claim) == said


def test_only_a_leading_function_word_is_lower_cased() -> None:
    assert clause("This bridge opened in 1933.") == "this bridge opened in 1933"
    assert clause("Ittoqqortoormiit is in Greenland.") == "Ittoqqortoormiit is in Greenland"
