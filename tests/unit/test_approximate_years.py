"""An approximate year in a claim covers the years either side of it (`reading.evidence.units`; real spaCy parse)."""

from __future__ import annotations

import pytest

from agents.reading.candidates.reader import nlp
from agents.reading.evidence.units import UnitKind, content_units
from agents.reading.mentions.values import APPROX_YEARS


@pytest.mark.parametrize(
    ("sentence", "tolerance"),
    [
        ("The bridge over the Vell was finished around 1600.", APPROX_YEARS / 1600),
        ("The bridge over the Vell was finished about 1600.", APPROX_YEARS / 1600),
        ("The bridge over the Vell was finished in 1600.", None),
    ],
)
def test_a_year_said_around_covers_its_neighbours(sentence: str, tolerance: float | None) -> None:
    [year] = [u for u in content_units(nlp()(sentence)) if u.kind == UnitKind.NUMBER]
    assert year.key == "1600" and year.tolerance == tolerance
