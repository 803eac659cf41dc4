"""The process's Prolog: the only module that imports janus-swi.

janus embeds one SWI-Prolog per process. This module consults the project's Prolog programs once
and runs goals with bound arguments; `engine.py` (the KB) and `temporal.py` (MTL) build on it.
Several KBs can live side by side: `kb_module` consults `core.pl` once more under another module
name (the main KB is `drowzee`, a pair's supplied triples `drowzee_scratch`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from drowzee_core.errors import LogicError, PrologUnavailableError

MIN_SWIPL_VERSION = 90112  # janus needs SWI-Prolog >= 9.1.12
PROGRAMS = ("core.pl", "mtl.pl")
KB_PROGRAM = "core.pl"
DEFAULT_MODULE = "drowzee"
"""The module `core.pl` declares; other KB modules are copies of it under another name."""
MODULE_RE = re.compile(r"^drowzee[a-z_]*$")
"""KB module names: `[a-z_]+` with our prefix, so no name can replace a library module (`lists`, ...)."""
RESERVED_MODULES = frozenset({"drowzee_mtl"})
_MODULE_DECLARATION = f":- module({DEFAULT_MODULE}, [])."
TABLE_SPACE_ENV = "DROWZEE_PROLOG_TABLE_SPACE_GB"
DEFAULT_TABLE_SPACE_GB = 4.0
"""The most memory Prolog's tables may take (SWI-Prolog's own default is 1 GiB). The closure of a KB three
times Drowzee's (4.9M triples) takes 0.33 GB of it (docs/derivation.md); raise it for larger KBs."""
_RESOURCE = re.compile(r"Not enough resources: (\w+)")


def table_space_bytes(environ: Mapping[str, str] = os.environ) -> int:
    """The table space limit: ${TABLE_SPACE_ENV} (GB, > 0), else the default; a bad value says what to fix."""
    raw = environ.get(TABLE_SPACE_ENV, "").strip()
    if not raw:
        return int(DEFAULT_TABLE_SPACE_GB * 2**30)
    try:
        gb = float(raw)
    except ValueError:
        gb = -1.0
    if not 0 < gb < 2**20:
        raise LogicError(f"{TABLE_SPACE_ENV} must be a number of gigabytes above 0, such as 8; got {raw!r}")
    return int(gb * 2**30)


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
    janus.query_once("set_prolog_flag(table_space, B)", {"B": table_space_bytes()})
    for name in PROGRAMS:
        janus.consult(f"drowzee_core/{name}", _source(name))
    return janus


def _source(name: str) -> str:
    return resources.files("drowzee_core.logic").joinpath(f"prolog/{name}").read_text("utf-8")


@cache
def kb_module(module: str) -> str:
    """Make sure the KB program is consulted into `module` (once per name) and return the name.

    `module` is a constant chosen by this package's code, never user text; it must match
    `drowzee[a-z_]*` and must not be the MTL program's module.
    """
    if not MODULE_RE.fullmatch(module) or module in RESERVED_MODULES:
        raise LogicError(
            f"Prolog module name must match drowzee[a-z_]* and not be one of {sorted(RESERVED_MODULES)},"
            f" got {module!r}; pick a constant such as 'drowzee_scratch'"
        )
    janus = _janus()
    if module != DEFAULT_MODULE:
        src = _source(KB_PROGRAM)
        if src.count(_MODULE_DECLARATION) != 1:
            raise LogicError(f"{KB_PROGRAM} must declare `{_MODULE_DECLARATION}` exactly once")
        janus.consult(f"drowzee_core/{module}.pl", src.replace(_MODULE_DECLARATION, f":- module({module}, []).", 1))
    return module


def call(goal: str, inputs: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run a fixed goal once with bound `inputs`; raise `LogicError` on an error or a failure.

    `goal` is always a constant of this package's code; user data travels only in `inputs`.
    """
    janus = _janus()
    try:
        result: dict[str, Any] = janus.query_once(goal, inputs or {})
    except janus.PrologError as exc:
        raise LogicError(_explained(goal.split("(")[0], str(exc))) from exc
    if not result.get("truth", False):
        raise LogicError(f"Prolog goal {goal.split('(')[0]} failed unexpectedly")
    return result


def _explained(goal: str, error: str) -> str:
    """Prolog's error on `goal`, with what to do when it ran out of a resource."""
    found = _RESOURCE.search(error)
    if found is None:
        return f"Prolog failed on {goal}: {error}"
    if "table_space" in found.group(1):
        limit = int(_janus().query_once("current_prolog_flag(table_space, B)")["B"]) / 2**30
        fix = f"the KB's closures need more than the {limit:.1f} GB tables may take: set {TABLE_SPACE_ENV} higher"
    else:
        fix = "the KB needs more Prolog memory than this process may take: derive it on a machine with more memory"
    return f"Prolog ran out of {found.group(1)} on {goal}; {fix} ({error})"


def ensure_loaded() -> None:
    """Start Prolog and consult the programs (raises `PrologUnavailableError` when it cannot)."""
    _janus()
