"""The process's Prolog: the only module that imports janus-swi.

janus embeds one SWI-Prolog per process. This module consults the project's Prolog programs once
and runs goals with bound arguments; `engine.py` (the KB) and `temporal.py` (MTL) build on it.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from drowzee_core.errors import LogicError, PrologUnavailableError

MIN_SWIPL_VERSION = 90112  # janus needs SWI-Prolog >= 9.1.12
PROGRAMS = ("core.pl", "mtl.pl")


@cache
def _janus() -> Any:
    try:
        import janus_swi as janus
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise PrologUnavailableError(
            f"janus-swi is not importable; run `make setup` (builds SWI-Prolog >= 9.1.12 and installs janus-swi): {exc}"
        ) from exc
    version = int(janus.query_once("current_prolog_flag(version, V)")["V"])
    if version < MIN_SWIPL_VERSION:
        raise PrologUnavailableError(f"SWI-Prolog {version} is too old; janus needs >= {MIN_SWIPL_VERSION}")
    for name in PROGRAMS:
        src = resources.files("drowzee_core.logic").joinpath(f"prolog/{name}").read_text("utf-8")
        janus.consult(f"drowzee_core/{name}", src)
    return janus


def call(goal: str, inputs: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run a fixed goal once with bound `inputs`; raise `LogicError` on an error or a failure.

    `goal` is always a constant of this package's code; user data travels only in `inputs`.
    """
    janus = _janus()
    try:
        result: dict[str, Any] = janus.query_once(goal, inputs or {})
    except janus.PrologError as exc:
        raise LogicError(f"Prolog failed on {goal.split('(')[0]}: {exc}") from exc
    if not result.get("truth", False):
        raise LogicError(f"Prolog goal {goal.split('(')[0]} failed unexpectedly")
    return result


def ensure_loaded() -> None:
    """Start Prolog and consult the programs (raises `PrologUnavailableError` when it cannot)."""
    _janus()
