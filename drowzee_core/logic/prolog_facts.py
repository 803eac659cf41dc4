r"""Load Prolog fact files into a KB.

Accepted: `rel(subject, object).`, negated `\+ rel(s, o).`, and Drowzee's temporal
`begin('event', D, M, YYYY).` / `end('event', D, M, YYYY).` format.

An event with several begins and ends gets one interval per (begin, end) pair with begin <= end,
stored as (event, instance_of, event) with start and end years.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from drowzee_core.errors import LoadError
from drowzee_core.kb.loaders.tabular import link
from drowzee_core.kb.writer import KBWriter, LoadReport, RowError
from drowzee_core.logic.engine import PrologEngine


def load_prolog_facts(
    path: Path, writer: KBWriter, engine: PrologEngine, domain: str = "history_and_events"
) -> LoadReport:
    """Load a fact file; bad clauses are reported with their line and skipped."""
    if not path.is_file():
        raise LoadError(f"{path}: no such file")
    report = LoadReport()
    begins: dict[str, list[tuple[int, int]]] = defaultdict(list)
    ends: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for item in engine.read_fact_file(str(path)):
        line = int(item["line"])
        if "error" in item:
            report.errors.append(RowError(str(path), line, str(item["error"])))
            continue
        functor, args = str(item["functor"]), list(item["args"])
        try:
            if functor in ("begin", "end") and len(args) == 4:
                event, _day, _month, year = args
                if not isinstance(year, int) or not isinstance(event, str):
                    raise ValueError(f"{functor}/4 needs an event name and an integer year, got {args}")
                (begins if functor == "begin" else ends)[event].append((line, year))
                report.accepted += 1
            elif len(args) == 2:
                s, o = (str(a) for a in args)
                writer.triple(
                    link(writer, s, None), functor, link(writer, o, None),
                    domain=domain, source=path.name, negated=item["negated"] == 1,
                )
                report.accepted += 1
            else:
                raise ValueError(f"{functor}/{len(args)}: expected rel(subject, object) or begin/end/4")
        except ValueError as exc:
            report.errors.append(RowError(str(path), line, str(exc)))
    for event in sorted(set(begins) | set(ends)):
        pairs = [(b, e) for _, b in begins.get(event, []) for _, e in ends.get(event, []) if b <= e]
        if not pairs:
            first = (begins.get(event) or ends[event])[0][0]
            report.errors.append(RowError(str(path), first, f"event {event!r} has no begin <= end pair"))
            continue
        key = link(writer, event, None)
        writer.entity("class:event", "event")
        for b, e in pairs:
            writer.triple(key, "instance_of", "class:event", domain=domain, source=path.name,
                          start_year=b, end_year=e)
    report.new_triples = writer.flush()
    return report
