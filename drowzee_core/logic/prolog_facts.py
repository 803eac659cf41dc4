r"""Load Prolog fact files into a KB.

Accepted: `rel(subject, object).`, negated `\+ rel(s, o).`, and Drowzee's temporal
`begin('event', D, M, YYYY).` / `end('event', D, M, YYYY).` format.

An event with several begins and ends gets one interval per (begin, end) pair with begin <= end,
stored as (event, instance_of, event) with start and end years.
"""

from __future__ import annotations

from pathlib import Path

from drowzee_core.errors import LoadError
from drowzee_core.kb.loaders.tabular import link
from drowzee_core.kb.writer import KBWriter, LoadReport, RowError
from drowzee_core.logic.engine import PrologEngine
from drowzee_core.logic.events import read_begin_end


def load_prolog_facts(
    path: Path, writer: KBWriter, engine: PrologEngine, domain: str = "history_and_events"
) -> LoadReport:
    """Load a fact file; bad clauses are reported with their line and skipped."""
    if not path.is_file():
        raise LoadError(f"{path}: no such file")
    report = LoadReport()
    parsed = read_begin_end(engine.read_fact_file(str(path)))
    report.errors.extend(RowError(str(path), line, reason) for line, reason in parsed.errors)
    report.accepted += parsed.accepted
    for item in parsed.other:
        line, functor, args = int(item["line"]), str(item["functor"]), list(item["args"])
        if len(args) != 2:
            report.errors.append(
                RowError(str(path), line, f"{functor}/{len(args)}: expected rel(subject, object) or begin/end/4")
            )
            continue
        s, o = (str(a) for a in args)
        writer.triple(
            link(writer, s, None),
            functor,
            link(writer, o, None),
            domain=domain,
            source=path.name,
            negated=item["negated"] == 1,
        )
        report.accepted += 1
    for event, pairs, first in parsed.intervals():
        if not pairs:
            report.errors.append(RowError(str(path), first, f"event {event!r} has no begin <= end pair"))
            continue
        key = link(writer, event, None)
        writer.entity("class:event", "event")
        for b, e in pairs:
            writer.triple(key, "instance_of", "class:event", domain=domain, source=path.name, start_year=b, end_year=e)
    report.new_triples = writer.flush()
    return report
