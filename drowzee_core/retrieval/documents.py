"""User documents for the local corpus (`--corpus DIR`): .txt / .md / .jsonl split into passages.

A passage is a few consecutive sentences of one paragraph (spaCy's rule-based sentencizer, no model).
A .jsonl file holds one JSON object per line with a `text` string. Files that are too big, not UTF-8,
of another type, or .jsonl lines without a `text` are skipped, each logged as a warning that names it
and listed in the `LoadReport`; nothing is dropped silently.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from drowzee_core.errors import DrowzeeError
from drowzee_core.nlp import blank_english
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource

log = logging.getLogger(__name__)

SUFFIXES = (".txt", ".md", ".jsonl")
MAX_FILE_BYTES = 20_000_000
"""Default size limit of one document file."""
MAX_PASSAGE_CHARS = 1_000
"""A sentence longer than this is cut at whitespace into pieces of about this size."""
_PARAGRAPH = re.compile(r"\n\s*\n")


class CorpusError(DrowzeeError):
    """The corpus cannot be built as asked (missing folder, bad setting, unusable index)."""


@dataclass(frozen=True)
class Passage:
    """A retrievable unit: its provisional evidence id, text, reference and source."""

    id: str
    text: str
    ref: str
    source: EvidenceSource

    def evidence(self, score: float | None) -> EvidenceItem:
        """The passage as an evidence item."""
        return EvidenceItem(id=self.id, source=self.source, text=self.text, score=score, ref=self.ref)


@dataclass
class LoadReport:
    """What `load_documents` read and what it skipped, with the reasons."""

    files: int = 0
    passages: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """(path or `path:line`, reason) of each file or line left out."""

    def skip(self, where: str, reason: str) -> None:
        """Record and log one skipped file or line."""
        log.warning("corpus: skipped %s: %s", where, reason)
        self.skipped.append((where, reason))


@cache
def _sentencizer() -> Any:
    nlp = blank_english()
    nlp.add_pipe("sentencizer")
    nlp.max_length = MAX_FILE_BYTES + 1
    return nlp


def _pieces(sentence: str, max_chars: int) -> list[str]:
    """`sentence`, cut at whitespace into pieces of at most about `max_chars` characters."""
    if len(sentence) <= max_chars:
        return [sentence]
    out: list[str] = []
    current = ""
    for word in sentence.split():
        if current and len(current) + 1 + len(word) > max_chars:
            out.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        out.append(current)
    return out


def split_passages(text: str, sentences: int = 3, max_chars: int = MAX_PASSAGE_CHARS) -> list[str]:
    """`text` as passages of up to `sentences` sentences, never across a blank-line paragraph break."""
    if sentences < 1:
        raise CorpusError(f"`sentences` per passage must be >= 1, got {sentences}")
    nlp = _sentencizer()
    out: list[str] = []
    for paragraph in _PARAGRAPH.split(text):
        flat = " ".join(paragraph.split())
        if not flat:
            continue
        sents = [p for s in nlp(flat).sents for p in _pieces(s.text.strip(), max_chars) if p]
        out.extend(" ".join(sents[i : i + sentences]) for i in range(0, len(sents), sentences))
    return out


def _texts(path: Path, raw: str, report: LoadReport) -> list[tuple[str, str]]:
    """(ref, text) of each record in one decoded file."""
    if path.suffix != ".jsonl":
        return [(str(path), raw)]
    out: list[tuple[str, str]] = []
    for lineno, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            report.skip(where, f"not JSON ({exc.msg})")
            continue
        text = row.get("text") if isinstance(row, dict) else None
        if not isinstance(text, str):
            report.skip(where, "no `text` string field")
            continue
        out.append((where, text))
    return out


def load_documents(
    root: Path, *, sentences: int = 3, max_file_bytes: int = MAX_FILE_BYTES
) -> tuple[list[Passage], LoadReport]:
    """Passages of every .txt / .md / .jsonl file under `root` (a folder or one file), in path order."""
    if max_file_bytes < 1:
        raise CorpusError(f"`max_file_bytes` must be >= 1, got {max_file_bytes}")
    if not root.exists():
        raise CorpusError(f"corpus path {root} does not exist; pass a folder of .txt, .md or .jsonl files")
    base = root if root.is_dir() else root.parent
    files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
    report = LoadReport()
    passages: list[Passage] = []
    for path in files:
        if path.suffix.lower() not in SUFFIXES:
            report.skip(str(path), f"unsupported type {path.suffix or '(none)'}; use one of {', '.join(SUFFIXES)}")
            continue
        size = path.stat().st_size
        if size > max_file_bytes:
            report.skip(str(path), f"too big ({size:,} bytes > {max_file_bytes:,}); split it or raise the limit")
            continue
        try:
            raw = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as exc:
            report.skip(str(path), f"not UTF-8 text ({exc.reason} at byte {exc.start}); convert it to UTF-8")
            continue
        rel = path.relative_to(base).as_posix()
        n = 0
        for ref, text in _texts(path, raw, report):
            for chunk in split_passages(text, sentences):
                passages.append(Passage(f"doc:{rel}#{n}", chunk, ref, EvidenceSource.CORPUS))
                n += 1
        report.files += 1
    report.passages = len(passages)
    log.info(
        "corpus: %d passages from %d files under %s (%d skipped)",
        len(passages),
        report.files,
        root,
        len(report.skipped),
    )
    return passages, report


__all__ = ["MAX_FILE_BYTES", "SUFFIXES", "CorpusError", "LoadReport", "Passage", "load_documents", "split_passages"]
