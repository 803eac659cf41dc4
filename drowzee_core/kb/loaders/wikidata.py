"""Triples from Wikidata SPARQL JSON results (`application/sparql-results+json`).

Variables: subject `s`/`subject`/`item`, relation `p`/`property`/`relation` (or a fixed relation
given by the caller), object `o`/`object`/`value`; labels from `<var>Label`; optional `start`,
`end` (dates or years). URIs become keys like `wd:Q90`; literal objects become numbers or years.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from drowzee_core.errors import LoadError
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.writer import KBWriter, LoadReport, RowError

_SUBJECT = ("s", "subject", "item")
_RELATION = ("p", "property", "relation")
_OBJECT = ("o", "object", "value")
_YEAR = re.compile(r"^([+-]?\d{1,5})-\d\d-\d\d")
_WD = re.compile(r"^https?://www\.wikidata\.org/(?:entity|prop/direct|wiki)/(?:Property:)?([PQL]\d+)$")


def _pick(vars_: list[str], names: tuple[str, ...]) -> str | None:
    return next((v for v in names if v in vars_), None)


def _year(cell: dict[str, Any] | None) -> int | None:
    if not cell:
        return None
    m = _YEAR.match(cell.get("value", ""))
    if m:
        return int(m.group(1))
    try:
        return int(cell.get("value", ""))
    except ValueError:
        raise ValueError(f"cannot read a year from {cell.get('value')!r}") from None


def _node(writer: KBWriter, cell: dict[str, Any], label: dict[str, Any] | None) -> str:
    value = str(cell.get("value", ""))
    if cell.get("type") == "uri":
        m = _WD.match(value)
        key = f"wd:{m.group(1)}" if m else value
        return writer.entity(key, (label or {}).get("value") or (m.group(1) if m else value))
    datatype = str(cell.get("datatype", ""))
    if datatype.endswith("#dateTime"):
        year = _year(cell)
        assert year is not None
        return writer.year(year)
    if datatype.endswith(("#decimal", "#integer", "#double", "#float")):
        return writer.quantity(float(value))
    return writer.entity(value, value, ValueKind.ENTITY)


def load_wikidata_json(
    path: Path, writer: KBWriter, relation: str | None = None, domain: str = "general"
) -> LoadReport:
    """Load SPARQL JSON results; `relation` names the relation when the query has no `p` variable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        vars_ = list(data["head"]["vars"])
        bindings = data["results"]["bindings"]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise LoadError(f"{path}: not SPARQL JSON results (need head.vars and results.bindings): {exc}") from exc
    s_var, p_var, o_var = _pick(vars_, _SUBJECT), _pick(vars_, _RELATION), _pick(vars_, _OBJECT)
    if s_var is None or o_var is None or (p_var is None and relation is None):
        raise LoadError(
            f"{path}: need subject ({'/'.join(_SUBJECT)}), object ({'/'.join(_OBJECT)}) and relation"
            f" ({'/'.join(_RELATION)} or --relation) variables; found {vars_}"
        )
    report = LoadReport()
    for n, b in enumerate(bindings, start=1):
        try:
            if s_var not in b or o_var not in b:
                raise ValueError("binding lacks the subject or object")
            if p_var:
                if p_var not in b:
                    raise ValueError(f"binding lacks {p_var}")
                pcell = b[p_var]
                plabel = b.get(f"{p_var}Label", {}).get("value")
                m = _WD.match(str(pcell.get("value", "")))
                rel = plabel or (m.group(1) if m else str(pcell.get("value", "")))
            else:
                assert relation is not None
                rel = relation
            writer.triple(
                _node(writer, b[s_var], b.get(f"{s_var}Label")),
                rel,
                _node(writer, b[o_var], b.get(f"{o_var}Label")),
                domain=domain,
                source=path.name,
                start_year=_year(b.get("start")),
                end_year=_year(b.get("end")),
            )
            report.accepted += 1
        except (ValueError, AttributeError) as exc:
            report.errors.append(RowError(str(path), n, str(exc)))
    report.new_triples = writer.flush()
    return report
