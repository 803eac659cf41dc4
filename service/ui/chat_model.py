"""What the Chat tab does besides layout: read the inputs, ask the target model, turn node events into panels.

Everything here is plain Python (no Gradio), so it is tested without a browser.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.pair import EvidenceItemIn
from drowzee_core.records.verdict import Verdict, VerifyRequest
from service.ui import banner, highlight, progress_view, render

if TYPE_CHECKING:
    from agents.verifier.runner import NodeEvent

EXAMPLES: list[list[str]] = [
    ["What is the capital of France?", "The capital of France is Lyon.", ""],
    ["What is the year of birth of Hirohito?", "Hirohito was born in 1886.", ""],
    [
        "Are Sainte-Chapelle and Notre-Dame de Paris located in different cities?",
        "No. Both are in Paris.",
        '[["Sainte-Chapelle", "located in", "Paris"], ["Notre-Dame de Paris", "located in", "Paris"]]',
    ],
    [
        "Where is the Eiffel Tower?",
        "The Eiffel Tower is in Paris. It was completed in 1889.",
        "The Eiffel Tower is a wrought-iron lattice tower in Paris, France, completed in 1889.",
    ],
]
"""Example (query, response, evidence) rows for the "Check a pair" mode."""

FIELD_NAMES = {"query": "Query", "response": "Response", "evidence": "Evidence", "id": "Id"}
FIRST_LOAD = "loading the verifier (the first check loads the KB into Prolog and the models: up to a minute or two)"


class InputError(DrowzeeError):
    """What the user typed cannot be checked; the message says what to fix."""


# ---------------------------------------------------------------------------------------------- inputs
def _check_items(items: list[Any]) -> list[EvidenceItemIn]:
    """The JSON list's items, each a string, `[entity, sentence]` or a triple `[s, r, o]` of non-empty strings."""
    for n, item in enumerate(items, 1):
        if isinstance(item, str):
            continue
        shown = json.dumps(item, ensure_ascii=False)[:120]
        if not isinstance(item, list) or not all(isinstance(p, str) for p in item):
            raise InputError(
                f"Evidence item {n} must be a string or a list of strings (a triple [subject, relation, object]);"
                f" got {shown}"
            )
        if len(item) not in (2, 3) or (len(item) == 3 and not all(p.strip() for p in item)):
            raise InputError(
                f"Evidence item {n} is not a triple: a triple is [subject, relation, object], three non-empty"
                f" strings (or [entity, sentence]); got {shown} with {len(item)} part(s)"
            )
    return items


def parse_evidence(text: str | None) -> list[EvidenceItemIn] | str | None:
    """The evidence box's content: None when empty, a list when it parses as a JSON list, else the text.

    Raises:
        InputError: The text starts like a JSON list of strings or triples (`[[` or `["`) but is not
            valid JSON, or a list item is neither text nor a triple.

    """
    text = (text or "").strip()
    if not text:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if text.replace(" ", "").startswith(("[[", '["')):
            raise InputError(
                f"The evidence looks like a JSON list but is not valid JSON ({exc.msg} at line {exc.lineno},"
                f' column {exc.colno}). Write triples as [["subject", "relation", "object"], ...], or plain text.'
            ) from None
        return text
    return _check_items(data) if isinstance(data, list) else text


def validation_message(exc: ValidationError) -> str:
    """A pydantic error as one readable line per problem: `Response: String should have at least 1 character`."""
    lines = []
    for err in exc.errors():
        loc = [str(p) for p in err["loc"]]
        name = FIELD_NAMES.get(loc[0], loc[0]) if loc else "input"
        where = f" (item {int(loc[1]) + 1})" if len(loc) > 1 and loc[1].isdigit() else ""
        lines.append(f"{name}{where}: {err['msg']}")
    return "\n".join(dict.fromkeys(lines))


def build_request(query: str | None, response: str | None, evidence: str | None) -> VerifyRequest:
    """The verify request of the form's fields.

    Raises:
        InputError: The response is empty, the evidence is malformed, or the request is invalid.

    """
    from agents.verifier.evidence import EvidenceError, normalize_evidence

    if not (response or "").strip():
        raise InputError("Response: write the response to check (the query and the evidence are optional).")
    parsed = parse_evidence(evidence)
    try:
        request = VerifyRequest(query=(query or "").strip(), response=(response or "").strip(), evidence=parsed)
    except ValidationError as exc:
        raise InputError(validation_message(exc)) from None
    try:
        normalize_evidence(request.evidence)
    except EvidenceError as exc:
        raise InputError(str(exc)) from None
    return request


# ---------------------------------------------------------------------------------------------- panels
@dataclass(frozen=True, slots=True)
class View:
    """What the verdict panels show (HTML each); `values()` is their order in the UI."""

    progress: str = ""
    verdict: str = ""
    highlights: str = ""
    evidence: str = ""
    proofs: str = ""
    opinions: str = ""

    def values(self) -> tuple[str, str, str, str, str, str]:
        """The panels' HTML in the order progress, verdict, highlights, evidence, proofs, opinions."""
        return (self.progress, self.verdict, self.highlights, self.evidence, self.proofs, self.opinions)


def section(title: str, html: str) -> str:
    """A panel's HTML under a small heading."""
    return f"<div class='dz-section'><div class='dz-section-title'>{escape(title)}</div>{html}</div>"


def verdict_view(verdict: Verdict, response: str, progress: str, anchor: str) -> View:
    """Every panel of a finished verdict."""
    proofs = list(verdict.proofs) or [c.proof for c in verdict.claims if c.proof is not None]
    return View(
        progress=progress,
        verdict=banner.verdict_html(verdict, anchor=anchor),
        highlights=section(
            "The response, claim by claim", highlight.response_html(response, verdict.claims, anchor=anchor)
        ),
        evidence=section(
            "Evidence", render.evidence_html(verdict.evidence, anchor=anchor, cited=render.cited_ids(verdict))
        ),
        proofs=section("Proofs", render.proofs_html(proofs)),
        opinions=section("Opinions of the sources", render.opinions_html(verdict.opinions)),
    )


@dataclass(slots=True)
class Progress:
    """The progress panel's lines so far."""

    lines: list[str] = field(default_factory=list)

    def html(self, running: str | None = None) -> str:
        """The panel with `running` as its last, pending line."""
        return progress_view.progress_html(self.lines, running=running)

    def fail(self, title: str, message: str) -> View:
        """A view whose progress ends with the failure and whose verdict panel explains it."""
        box = render.error_html(title, message)
        return View(progress=self.html(), verdict=box)


def stream_views(events: Iterable[NodeEvent], response: str, progress: Progress, anchor: str) -> Iterator[View]:
    """One view after each node event; the last shows the verdict, or says why there is none.

    Exceptions of `events` are not caught here: the caller shows them (`Progress.fail`).
    """
    for event in events:
        progress.lines.append(progress_view.node_html(event))
        verdict = event.update.get("verdict")
        if isinstance(verdict, Verdict):
            yield verdict_view(verdict, response, progress.html(), anchor)
            return
        yield View(progress=progress.html(running="checking..."))
    yield progress.fail("No verdict", "The verifier finished without a verdict; see the server log.")


def waiting(progress: Progress, first_load: bool) -> View:
    """The view while the verifier starts (it says when the first check will be slow)."""
    return View(progress=progress.html(running=FIRST_LOAD if first_load else "checking..."))


__all__ = [
    "EXAMPLES",
    "InputError",
    "Progress",
    "View",
    "build_request",
    "parse_evidence",
    "section",
    "stream_views",
    "validation_message",
    "verdict_view",
    "waiting",
]
