"""Load a KB file into the running service's KB (the Knowledge base tab's "Load a KB file"), then reload Prolog.

A load writes to the verifier's KB store on its KB thread (`Runtime.kb_call`), as `drowzee kb load`
does (registered loader, bad rows reported with file, line and reason, provenance sidecar rewritten),
then drops everything `Services` read from the KB's content, so the next proof sees the new facts.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from service.kbview import KBViewError

if TYPE_CHECKING:
    from agents.verifier.services import Services
    from drowzee_core.kb.writer import LoadReport

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 50_000_000
"""Largest KB file `load_kb_file` reads unless told otherwise."""
MAX_ERRORS = 1000
"""Rejected rows listed in a `LoadResult` (the count is always exact)."""
KB_CACHED = ("catalog", "kb_fingerprint", "reasoner", "kb_facts", "reader", "sentence_reader", "linker", "corpus")
"""`Services` cached properties read from the KB's content: dropped after a load, rebuilt on next use."""
_DOMAIN_RE = re.compile(r"^[A-Za-z0-9_\-]{1,64}$")


class RowProblem(BaseModel):
    """A rejected row of a loaded file."""

    model_config = ConfigDict(extra="forbid")

    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


class LoadResult(BaseModel):
    """What a file load did, and the KB's fingerprint after it."""

    model_config = ConfigDict(extra="forbid")

    file: str
    format: str
    domain: str
    accepted: int = Field(description="Rows accepted.")
    new_triples: int = Field(description="Accepted rows that were not already stored.")
    rejected: int = Field(description=f"Rows rejected (exact count; `errors` holds the first {MAX_ERRORS:,}).")
    errors: list[RowProblem]
    fingerprint: str = Field(description="The KB's content fingerprint after the load.")
    declared: list[str] = Field(default_factory=list, description="Relations the load's declaration file declared.")
    undeclared: list[str] = Field(
        default_factory=list,
        description="Relations the data uses that nothing declares: wording from their name, no logic.",
    )


def refresh(services: Services) -> None:
    """Drop what `Services` read from the KB's content (`KB_CACHED`) and reload Prolog if it was loaded.

    Building a new `Reasoner` resets its Prolog module before asserting the store's triples, so a
    reload never duplicates facts; its rule families are derived again on first use.
    """
    loaded = "reasoner" in vars(services)
    for name in KB_CACHED:
        vars(services).pop(name, None)
    if loaded:
        log.info("reloading the KB into Prolog")
        _ = services.reasoner


def load_kb_file(
    services: Services,
    path: Path | str,
    fmt: str,
    domain: str = "general",
    *,
    relation: str | None = None,
    relations: Path | str | None = None,
    max_bytes: int = MAX_FILE_BYTES,
) -> LoadResult:
    """Add a file's triples to the running KB with the loader registered as `fmt`, then reload Prolog.

    Args:
        services: The verifier's services (call on its KB thread).
        path: The file to load.
        fmt: A `LOADERS` name (csv, jsonl, prolog, wikidata-json).
        domain: Domain of rows that name none.
        relation: wikidata-json only: the relation when the query has no `?p`.
        relations: A TOML file declaring the data's relations (`drowzee_core.kb.declarations`); checked
            whole before anything is written.
        max_bytes: Largest file accepted.

    Returns:
        The loader's counts and its first `MAX_ERRORS` rejected rows, with the new fingerprint.

    Raises:
        KBViewError: no such file, an empty or too large file, an unknown format, or a bad domain.
        LoadError: the loader cannot read the file at all (nothing is written then).

    """
    from drowzee_core.kb.declarations import read_declarations
    from drowzee_core.kb.loading import finish_load, writer_for_load
    from drowzee_core.kb.store import KBStore
    from drowzee_core.logic.kb_formats import LOADERS, LoadOptions
    from drowzee_core.logic.scratch import bundled_catalog

    file = Path(path)
    if not file.is_file():
        raise KBViewError(f"{file}: no such file; upload it again")
    size = file.stat().st_size
    if size == 0:
        raise KBViewError(f"{file.name} is empty; a KB file holds one triple per row")
    if size > max_bytes:
        raise KBViewError(f"{file.name} has {size:,} bytes; the limit is {max_bytes:,}: split it into smaller files")
    if fmt not in LOADERS:
        raise KBViewError(f"unknown KB file format {fmt!r}; choose one of {', '.join(LOADERS.names())}")
    domain = (domain or "").strip() or "general"
    if not _DOMAIN_RE.fullmatch(domain):
        raise KBViewError(f"domain {domain!r} must be 1-64 letters, digits, '_' or '-' (e.g. geography)")
    declared = read_declarations(Path(relations)) if relations else None
    kb = Path(services.settings.kb)
    if "store" not in vars(services) and str(kb) != ":memory:" and not kb.exists():
        # a service started on a KB file that does not exist yet: the first load creates it
        kb.parent.mkdir(parents=True, exist_ok=True)
        vars(services)["store"] = KBStore(kb, create=True)
    store = services.store
    plan = writer_for_load(store, declared, bundled_catalog())
    try:
        options = LoadOptions(domain=domain, relation=(relation or "").strip() or None)
        report = LOADERS.get(fmt)(file, plan.writer, options)
        finish_load(store, plan, report)
    finally:
        refresh(services)  # also after a failure: the prolog loader resets the KB's Prolog module
    fingerprint = services.kb_fingerprint
    _record(services, file, fmt, domain, report, fingerprint)
    log.info(
        "loaded %s (%s): %d accepted, %d new, %d rejected",
        file,
        fmt,
        report.accepted,
        report.new_triples,
        len(report.errors),
    )
    return LoadResult(
        file=str(file),
        format=fmt,
        domain=domain,
        accepted=report.accepted,
        new_triples=report.new_triples,
        rejected=len(report.errors),
        errors=[RowProblem(file=e.file, line=e.line, reason=e.reason) for e in report.errors[:MAX_ERRORS]],
        fingerprint=fingerprint,
        declared=list(plan.declared),
        undeclared=list(report.undeclared),
    )


def _record(services: Services, file: Path, fmt: str, domain: str, report: LoadReport, fingerprint: str) -> None:
    """Rewrite the KB's provenance sidecar for its new content, as `drowzee kb load` does."""
    from drowzee_core.records.provenance import input_files, provenance, read_sidecar, write_sidecar

    kb = services.store.path
    if str(kb) == ":memory:":
        return
    counts = {k: v for k, v in report.to_json().items() if k != "errors"}
    params = {"kb": str(kb), "format": fmt, "domain": domain, "via": "service"}
    record = provenance("kb.load", params, kb_fingerprint=fingerprint, inputs=input_files([file]), counts=counts)
    before = read_sidecar(kb)
    if before is not None:
        record.history = [*before.history, before.model_copy(update={"history": []})]
    write_sidecar(kb, record)


__all__ = ["KB_CACHED", "MAX_FILE_BYTES", "LoadResult", "RowProblem", "load_kb_file", "refresh"]
