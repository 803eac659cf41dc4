"""`drowzee verify`: check one pair with the triangulation verifier.

`drowzee batch` is in `cli/batch.py`, `drowzee verifier mix | run | fit | report` in `cli/verifier_fit.py`.

Options map onto `agents.verifier.settings.VerifierSettings` (explicit > `DROWZEE_VERIFY_*` > defaults).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from cli.output import JsonOpt, KbOpt, emit_json, err, fail
from drowzee_core.errors import DrowzeeError
from drowzee_core.records.verdict import ClaimVerdict, Decision, UndecidedPolicy, Verdict

PolicyOpt = Annotated[
    str | None, typer.Option("--policy", help="calibrated (default), strict or majority (without a capable manager).")
]
NoOpt = Annotated[bool, typer.Option(help="Leave this source out (ablations).")]
UndecidedOpt = Annotated[
    UndecidedPolicy | None,
    typer.Option(
        "--undecided",
        case_sensitive=False,
        help="Label of a verdict nothing decided (shown as not verified, confidence at most 0.70): lean (the"
        " models' lean, default), factual or non-factual.",
    ),
]


def verifier_settings(**explicit: Any) -> Any:
    """`VerifierSettings` from explicit option values (None: unset), the environment and defaults."""
    from agents.verifier.settings import VerifierSettings

    return VerifierSettings.load(explicit)


def left_out(no_guardian: bool, no_seeker: bool, no_kb: bool) -> dict[str, bool | None]:
    """Explicit `False` for each source left out; None (unset: environment or default) otherwise."""
    return {
        "use_guardian": False if no_guardian else None,
        "use_seeker": False if no_seeker else None,
        "use_kb": False if no_kb else None,
    }


SHOWN_EVIDENCE = 12
"""Evidence items printed without --json (cited ones first)."""


def _read_evidence(spec: str | None) -> Any:
    """--evidence: a JSON file (list or string), a text file, or `-` for stdin."""
    if spec is None:
        return None
    text = sys.stdin.read() if spec == "-" else Path(spec).read_text("utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def headline(verdict: Verdict) -> str:
    """The verdict in one line: `NON-FACTUAL — refuted: ... (confidence 0.99)`, `NOT VERIFIED (lean FACTUAL, 0.58)`."""
    from drowzee_core.oracles.decisions import DECISION_WORDS, lean_of

    if verdict.decision != Decision.UNDECIDED:
        return f"{verdict.label} — {DECISION_WORDS[verdict.decision]} (confidence {verdict.confidence:.2f})"
    lean, p = lean_of(verdict)
    line = f"NOT VERIFIED (lean {lean}, {p:.2f})"
    if verdict.label != lean:
        line += f"; labelled {verdict.label} ({verdict.confidence:.2f}) by the undecided policy"
    return line


def claim_tag(claim: ClaimVerdict) -> str:
    """A claim's status and what decided it: `contradicted, proved K1`, `unknown, not decided`."""
    from drowzee_core.oracles.decisions import DECIDED_BY_WORDS

    if claim.decided_by is None:
        return f"{claim.status}, not decided"
    return " ".join([f"{claim.status}, {DECIDED_BY_WORDS[claim.decided_by]}", *claim.decided_ids])


def verify(
    query: Annotated[str, typer.Option("--query", help="The question the response answers.")],
    response: Annotated[str, typer.Option("--response", help="The response to check.")],
    evidence: Annotated[
        str | None,
        typer.Option(
            "--evidence", help="Evidence file (JSON list of texts or [s, r, o] triples, or text); - reads stdin."
        ),
    ] = None,
    web: Annotated[bool, typer.Option("--web", help="Also search the web (DuckDuckGo; needs a network).")] = False,
    corpus: Annotated[Path | None, typer.Option("--corpus", help="Folder of documents the Seeker searches.")] = None,
    policy: PolicyOpt = None,
    undecided: UndecidedOpt = None,
    no_guardian: NoOpt = False,
    no_seeker: NoOpt = False,
    no_kb: NoOpt = False,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Neither read nor write the cache of model, judge and proof calls.")
    ] = False,
    kb: KbOpt = None,
    service: Annotated[
        str | None,
        typer.Option(
            "--service",
            help="Ask the running service at this URL (default: DROWZEE_SERVICE_URL, else http://127.0.0.1:7860"
            " when one is up there and runs the same verifier settings).",
        ),
    ] = None,
    local: Annotated[
        bool, typer.Option("--local", help="Check the pair in this process; never ask a service.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Check one Query-Response pair: FACTUAL or NON-FACTUAL, why, and the evidence and proofs."""
    from cli.service_client import target, verify_remote
    from drowzee_core.records.verdict import VerifyRequest

    try:
        req = VerifyRequest(query=query, response=response, evidence=_read_evidence(evidence))
        settings = verifier_settings(
            kb=kb,
            web=web or None,
            corpus=corpus,
            policy=policy,
            undecided=undecided,
            cache=False if no_cache else None,
            **left_out(no_guardian, no_seeker, no_kb),
        )
        where = target(service, local)
        verdict = verify_remote(req, settings, where, timeout_s=4 * settings.timeout_s) if where else None
        if verdict is not None:
            err.print(
                f"[dim]answered by the running service at {where.url if where else ''} (--local checks here)[/dim]"
            )
        else:
            from agents.verifier.runner import Verifier

            with Verifier(settings) as verifier:
                verdict = verifier.verify(req)
    except (DrowzeeError, ValueError, OSError) as exc:
        raise fail(DrowzeeError(str(exc))) from exc
    if as_json:
        emit_json(verdict.model_dump(mode="json"))
        return
    err.print(f"[bold]{headline(verdict)}[/bold]")
    sys.stdout.write(verdict.explanation + "\n")
    for c in verdict.claims:
        sys.stdout.write(f"  [{claim_tag(c)}] {c.text}  {' '.join(c.evidence_ids)}\n")
    cited = {i for c in verdict.claims for i in c.evidence_ids} | set(re.findall(r"\[(\w+)\]", verdict.explanation))
    shown = sorted(verdict.evidence, key=lambda e: e.id not in cited)[:SHOWN_EVIDENCE]
    for e in shown:
        sys.stdout.write(f"  {e.id} ({e.source}) {e.text[:160]}\n")
    if len(verdict.evidence) > len(shown):
        err.print(f"  ... {len(verdict.evidence) - len(shown)} more evidence items (--json shows all)")
    for r in verdict.degraded_reasons:
        err.print(f"[yellow]degraded:[/yellow] {r}")
