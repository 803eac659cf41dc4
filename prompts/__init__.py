"""Prompt templates as data files: `<name>.txt` with `{placeholder}` fields, loaded by name."""

from __future__ import annotations

from functools import cache
from importlib import resources

from drowzee_core.errors import DrowzeeError

MODE_PROMPTS = {
    "guardian": "factchd_fallacy_finder",
    "judge": "factchd_judge_evidence",
    "arbitration": "factchd_arbitration",
}
"""The prompt of each FactCHD instruction mode, the same for training (`finetune.data`) and serving."""


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


__all__ = ["MODE_PROMPTS", "render", "template"]
