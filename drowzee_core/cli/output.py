"""Output helpers: JSON on stdout with --json, rich tables on stderr-free stdout otherwise."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

console = Console()
err = Console(stderr=True)


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
