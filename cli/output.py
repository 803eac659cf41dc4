"""Shared CLI pieces: option types, output, progress, the KB loader, and the parameters for sidecars.

JSON goes to stdout with --json, rich tables otherwise; progress and errors go to stderr.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from drowzee_core.config import default_kb_path
from drowzee_core.errors import DrowzeeError

if TYPE_CHECKING:
    from drowzee_core.logic.reasoner import Reasoner
    from drowzee_core.registry import Registry

console = Console()
err = Console(stderr=True)

KbOpt = Annotated[
    Path | None, typer.Option("--kb", help="KB file (default: $DROWZEE_KB or ~/.cache/drowzee/kb/seed.sqlite).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON on stdout instead of tables.")]


class RateColumn(ProgressColumn):
    """Rows per second of a task (rich's own speed estimate)."""

    def render(self, task: Task) -> Text:
        """The rate, or nothing until rich has one."""
        return Text(f"{task.speed:.2f} rows/s" if task.speed else "", style="progress.data.speed")


def progress(rate: bool = False) -> Progress:
    """A transient progress bar on stderr (stdout stays clean for --json); `rate` adds rows/s and an ETA."""
    tail = (RateColumn(), TextColumn("ETA"), TimeRemainingColumn()) if rate else (TimeElapsedColumn(),)
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        *tail,
        console=err,
        transient=True,
    )


def fail(exc: DrowzeeError) -> typer.Exit:
    """Print the error (it says what to fix) and exit with status 2."""
    err.print(f"[red]error:[/red] {escape(str(exc))}")  # "[[comparison]]" in a message is no markup
    return typer.Exit(code=2)


def emit_json(data: Any) -> None:
    """Write one JSON document to stdout."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def table(title: str, columns: Iterable[str], rows: Iterable[Iterable[Any]]) -> None:
    """Print a rich table."""
    t = Table(title=title)
    for c in columns:
        t.add_column(c)
    for r in rows:
        t.add_row(*(str(x) for x in r))
    console.print(t)


def kv(title: str, data: Mapping[str, Any]) -> None:
    """Print a two-column key/value table."""
    table(title, ("key", "value"), data.items())


def load_reasoner(kb: Path | None) -> Reasoner:
    """The KB at `kb` (or the default) loaded into Prolog, with a progress bar; imports janus lazily."""
    from drowzee_core.kb.store import KBStore
    from drowzee_core.logic.reasoner import Reasoner

    path = kb or default_kb_path()
    if not path.exists():
        raise DrowzeeError(f"no KB at {path}; build it with `drowzee kb build` or pass --kb")
    store = KBStore(path)
    with progress() as prog:
        task = prog.add_task("loading KB into Prolog", total=store.stats().triples)
        return Reasoner(store, progress=lambda k: prog.advance(task, k))


@contextmanager
def track(what: str, total: int | None) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr; the callable sets how many of `total` are done."""
    with progress() as prog:
        task = prog.add_task(what, total=total)
        yield lambda done: prog.update(task, completed=done)


def kb_fingerprint(kb: Path | None) -> str:
    """`KBStore.fingerprint()` of the KB at `kb` (or the default)."""
    from drowzee_core.kb.store import KBStore

    with KBStore(kb or default_kb_path()) as store:
        return store.fingerprint()


def jsonable(value: Any) -> Any:
    """An option value as JSON: paths as strings, enums as values, tuples as lists."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, Enum):
        return jsonable(value.value)
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return value


def command_params(ctx: typer.Context, **resolved: Any) -> dict[str, Any]:
    """The command's options and arguments (from its context) as JSON, for its provenance sidecar.

    Keys are the long option names (`--split-seed` -> `split_seed`) or argument names. `--json` is
    left out (it changes only what is printed); `resolved` adds or replaces values the command worked
    out (the default KB path, the resolved model role).
    """
    names = {}
    for param in ctx.command.params:
        longs = [o for o in param.opts if o.startswith("--")]
        if param.name:
            names[param.name] = longs[0][2:].replace("-", "_") if longs else param.name
    params = {names.get(k, k): v for k, v in ctx.params.items() if k != "as_json"}
    params.update(resolved)
    return {k: jsonable(v) for k, v in sorted(params.items())}


def names_help(registry: Registry[Any]) -> str:
    """`a, b or c`: the registered names, for option help."""
    names = registry.names()
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
