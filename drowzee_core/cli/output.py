"""Output helpers: JSON on stdout with --json, rich tables otherwise; progress and errors on stderr."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from drowzee_core.config import default_kb_path
from drowzee_core.errors import DrowzeeError

if TYPE_CHECKING:
    from drowzee_core.logic.reasoner import Reasoner

console = Console()
err = Console(stderr=True)

KbOpt = Annotated[
    Path | None, typer.Option("--kb", help="KB file (default: $DROWZEE_KB or ~/.cache/drowzee/kb/seed.sqlite).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON on stdout instead of tables.")]


def progress() -> Progress:
    """A transient progress bar on stderr (stdout stays clean for --json)."""
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )


def fail(exc: DrowzeeError) -> typer.Exit:
    """Print the error (it says what to fix) and exit with status 2."""
    err.print(f"[red]error:[/red] {exc}")
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
