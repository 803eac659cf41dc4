"""The Knowledge base tab's messages say what to do, in the tab itself where it can be done there."""

from __future__ import annotations

from pathlib import Path

from drowzee_core.errors import KBError
from drowzee_core.kb.store import KBStore
from service.ui.kb import _attempt


def test_a_missing_kb_points_at_the_load_form_too(tmp_path: Path) -> None:
    value, box = _attempt("Opening the KB", lambda: KBStore(tmp_path / "none.sqlite"))
    assert value is None
    assert "drowzee kb build" in box and "Load a KB file" in box


def test_other_kb_errors_are_shown_as_they_are() -> None:
    def unknown() -> None:
        raise KBError("no entity with id 7")

    value, box = _attempt("Showing an entity", unknown)
    assert value is None
    assert "no entity with id 7" in box and "Load a KB file" not in box
