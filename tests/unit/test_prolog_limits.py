"""The Prolog table space limit read from the environment (`drowzee_core.logic.session`), no Prolog."""

from __future__ import annotations

import pytest

from drowzee_core.errors import LogicError
from drowzee_core.logic.session import DEFAULT_TABLE_SPACE_GB, TABLE_SPACE_ENV, table_space_bytes


def test_the_default_and_a_setting_in_gigabytes() -> None:
    assert table_space_bytes({}) == int(DEFAULT_TABLE_SPACE_GB * 2**30) > 2**30  # above SWI-Prolog's 1 GiB
    assert table_space_bytes({TABLE_SPACE_ENV: " 8 "}) == 8 * 2**30
    assert table_space_bytes({TABLE_SPACE_ENV: "0.5"}) == 2**29


@pytest.mark.parametrize("raw", ["0", "-2", "lots", "1e9"])
def test_a_bad_setting_says_what_to_write(raw: str) -> None:
    with pytest.raises(LogicError, match=rf"{TABLE_SPACE_ENV} must be a number of gigabytes above 0.*{raw!r}"):
        table_space_bytes({TABLE_SPACE_ENV: raw})
