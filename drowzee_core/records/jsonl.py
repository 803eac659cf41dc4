"""Writing generated cases and counting them (shared by every generator's CLI and the benchmarks)."""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any


def write_jsonl(cases: Iterable[dict[str, Any]], out: Path) -> int:
    """Write one JSON object per line, atomically (a failed run leaves any earlier file intact)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", dir=out.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for case in cases:
                fh.write(json.dumps(case, ensure_ascii=False) + "\n")
                n += 1
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # mkstemp makes 0600; a result file gets the usual mode
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return n


def counts(cases: Sequence[dict[str, Any]], keys: Sequence[str]) -> dict[str, dict[str, int]]:
    """For each key, how many cases have each value (null shown as "none"), largest first."""
    out: dict[str, dict[str, int]] = {}
    for key in keys:
        c = Counter("none" if case.get(key) is None else str(case.get(key)) for case in cases)
        out[key] = dict(c.most_common())
    return out
