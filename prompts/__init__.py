"""Prompt templates as data files: `<name>.txt` with `{placeholder}` fields, loaded by name."""

from __future__ import annotations

from functools import cache
from importlib import resources

from drowzee_core.errors import DrowzeeError


@cache
def template(name: str) -> str:
    """The text of prompt `name` (a file `prompts/<name>.txt`)."""
    path = resources.files(__name__).joinpath(f"{name}.txt")
    if not path.is_file():
        raise DrowzeeError(f"no prompt template named {name!r} (expected prompts/{name}.txt)")
    return path.read_text("utf-8")


def render(name: str, **values: str) -> str:
    """Prompt `name` with its placeholders filled; a missing value is an error, not a blank."""
    try:
        return template(name).format(**values)
    except KeyError as exc:
        raise DrowzeeError(f"prompt {name!r} needs a value for {exc.args[0]!r}") from None


__all__ = ["render", "template"]
