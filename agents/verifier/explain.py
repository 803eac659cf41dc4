"""The Manager's explanation without a capable model (pure): composed from what decided the verdict only.

- decided by a proof (or a trusted judge): FactCHD's reason shape - the label; "The answer that ...
  is correct / incorrect."; the proof's stored facts (or the judge's items) with their ids; a
  conclusion. Nothing else is cited as support.
- decided by the supplied evidence's sentences (`agents.reading.evidence.support`): a refuted answer quotes the
  conflicting sentence with its id and names the conflict ("the evidence gives X [S1.2], not Y"); a
  supported one quotes the sentences that hold the claims.
- `unsupported`: the answer is not supported by the supplied evidence; the claims it does not state;
  what the evidence lacks; what it says instead (quoted with ids, not as support).
- `undecided`: "Not verified: nothing I could check decides this claim." first; the claims nothing
  decided; what was searched; the label named as the models' lean, never "correct" or "incorrect".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from agents.reading.claim_types import Claim, ClaimOrigin
from agents.reading.claims import AnswerSet
from agents.reading.evidence import yes_or_no
from agents.verifier.aggregation import Lean
from agents.verifier.decision import Assessment
from agents.verifier.explain_clauses import (
    LISTED_RULE,
    MAX_CITED,
    cite,
    listed_sentence,
    negation,
    proof_citations,
    quote,
)
from agents.verifier.explain_evidence import from_evidence, read_by, sentences
from agents.verifier.kb.lists import WHOLE_LIST_RULE
from agents.verifier.kb.supplied import DISTINCT_RULE
from agents.verifier.schemas import KBResult
from drowzee_core.generate.factchd_record import NO_FALLACY
from drowzee_core.generate.templates_kb import clause
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import (
    DecidedBy,
    Decision,
    EvidenceFinding,
    EvidenceItem,
    EvidenceSource,
    Opinion,
    OpinionSource,
    UndecidedPolicy,
)

MAX_ANSWER_CHARS = 300
_QUOTED_STARTS = frozenset(
    {"he", "she", "it", "they", "we", "i", "you", "this", "that", "these", "those", "there", "in", "on", "at"}
    | {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
)
"""A response starting so is quoted, not read as a clause ("The answer "She was born ..." is ...")."""
_QUOTE = re.compile(r"^(?:yes|no)\b|\b(?:I|I'm|my|me|we|our)\b", re.IGNORECASE)
"""A Yes / No answer, or one in the first person ("Sydney, if I recall."), is quoted, not read as a statement
("The answer "No. ..." is ...")."""
MAX_LISTED = 6
STATED = frozenset({DISTINCT_RULE, WHOLE_LIST_RULE})
"""Proof rules whose conclusion the explanation says after the facts (the facts alone leave it implicit)."""
MIN_STATEMENT_WORDS = 3
"""A shorter response is a short answer, quoted rather than read as a clause ("The answer "Tokyo." ...")."""
_SOURCE_NAMES = (
    (EvidenceSource.SUPPLIED, "supplied item"),
    (EvidenceSource.KB, "KB fact"),
    (EvidenceSource.CORPUS, "corpus passage"),
    (EvidenceSource.WEB, "web result"),
)


def _answer(response: str) -> str:
    """The response after "The answer": `that <statement>`, or a Yes / No answer quoted ("No. Both ...")."""
    text = " ".join(response.split())
    if len(text) > MAX_ANSWER_CHARS:
        text = text[: MAX_ANSWER_CHARS - 3].rsplit(" ", 1)[0] + "..."
    body = clause(text)
    first = body.split(" ", 1)[0].lower()
    if _QUOTE.search(body) or len(body.split()) < MIN_STATEMENT_WORDS or first in _QUOTED_STARTS or first.isdigit():
        return f'"{text}"'
    return f"that {body}"


def compose(
    assessment: Assessment,
    label: Label,
    response: str,
    claims: Sequence[Claim],
    results: Sequence[KBResult],
    evidence: Sequence[EvidenceItem],
    opinions: Sequence[Opinion],
    answers: AnswerSet | None = None,
    lean: Lean | None = None,
    undecided: UndecidedPolicy = UndecidedPolicy.LEAN,
    findings: Mapping[str, EvidenceFinding] | None = None,
) -> str:
    """The explanation of a verdict, from what decided it only (module docstring)."""
    decision = assessment.decision
    found = findings or {}
    if decision == Decision.UNDECIDED:
        return _not_verified(assessment, label, claims, evidence, opinions, answers, lean, undecided, found)
    if decision == Decision.UNSUPPORTED:
        return _unsupported(assessment, label, response, claims, evidence, answers, found)
    head = f"{label}.\nThe answer {_answer(response)} is {'correct' if label == Label.FACTUAL else 'incorrect'}."
    if assessment.decided_by == DecidedBy.EVIDENCE:
        return from_evidence(assessment, head, label, claims, results, evidence, found)
    leaf_ids = {e.text: e.id for e in evidence}
    by_id = {c.id: c for c in claims}
    if assessment.decided_by == DecidedBy.JUDGE:
        ids = [i for c in assessment.claims if c.decided_by == DecidedBy.JUDGE for i in c.decided_ids]
        items = {e.id: e for e in evidence}
        cites: list[tuple[str, str | None]] = [(items[i].text, i) for i in dict.fromkeys(ids) if i in items]
        cites = cites[:MAX_CITED]
        body = f"According to the evidence, {cite(cites)}." if cites else ""
        proved = proof_citations(results, leaf_ids, ProofStatus.SUPPORTED)[:MAX_CITED]
        body += f" Proved: {cite(proved)}." if proved else ""
        tail = "The grounded judge found every other claim supported by these items, above its trusted threshold."
        return " ".join(x for x in (head, body.strip(), tail, NO_FALLACY) if x)
    want = ProofStatus.SUPPORTED if label == Label.FACTUAL else ProofStatus.CONTRADICTED
    cites = proof_citations(results, leaf_ids, want)[:MAX_CITED]
    body = f"According to the evidence, {cite(cites)}." if cites else ""
    stated = [r.proof.text for r in results if r.status == want and r.proof is not None and r.proof.rule in STATED]
    body += f" {stated[0]}" if stated else ""  # what the values show: "... none in common."
    listed = [r.proof for r in results if r.status == want and r.proof is not None and r.proof.rule == LISTED_RULE]
    body += f" {listed_sentence(listed[0])}" if listed else ""
    if label == Label.NON_FACTUAL:
        wrong = [by_id[r.claim_id].text for r in results if r.status == want and r.claim_id in by_id]
        body += f" {negation(wrong[0])}" if wrong else ""
        if not wrong:  # no claim refuted: the KB check's own reason (an answer given both ways)
            why = [o.explanation for o in opinions if o.source == OpinionSource.KB_CHECK and o.explanation]
            body += f" {why[0][:1].upper()}{why[0][1:]}." if why else ""
        tail = "Therefore, the answer contains an incorrect conclusion."
    else:
        tail = NO_FALLACY
    return " ".join(x for x in (head, body.strip(), tail) if x)


def _open_claims(assessment: Assessment, claims: Sequence[Claim]) -> list[str]:
    """The texts of the claims nothing decided, in reading order.

    A bare "Yes." / "No." is left out beside a claim read from the question: that claim is what it says.
    """
    open_ = set(assessment.unsupported_ids)
    texts = [c.text for c in claims if c.id in open_]
    stated = [t for t in texts if yes_or_no(t) is None]
    return stated if stated and any(c.origin == ClaimOrigin.QUERY for c in claims) else texts


def _ids(ids: Sequence[str]) -> str:
    """Evidence ids as written in a sentence: all of them up to `MAX_LISTED`, else the first and last."""
    return ", ".join(ids) if len(ids) <= MAX_LISTED else f"{', '.join(ids[:3])}, ... {ids[-1]}"


def _searched(evidence: Sequence[EvidenceItem]) -> str:
    """What was looked at, by source ("2 supplied items (S1, S2); 5 KB facts (R1, ..."), or that nothing was found."""
    parts = []
    for source, name in _SOURCE_NAMES:
        ids = [e.id for e in evidence if e.source == source]
        if ids:
            parts.append(f"{len(ids)} {name}{'s' if len(ids) > 1 else ''} ({_ids(ids)})")
    return "; ".join(parts) if parts else "nothing relevant was found"


def _opinion(o: Opinion) -> str:
    """One source's say, as the explanation reports it (the Seeker's judge as P(supported))."""
    if o.source == OpinionSource.SEEKER and o.confidence is not None and o.label is not None:
        p = o.confidence if o.label == Label.FACTUAL else 1.0 - o.confidence
        said = f"the judge's P(supported) {p:.2f}"
    else:
        said = f"{o.source} {o.label}" + (f" ({o.confidence:.2f})" if o.confidence is not None else "")
    return said + ("" if o.counted else ", not counted: at its constant baseline on dev")


def _not_verified(
    assessment: Assessment,
    label: Label,
    claims: Sequence[Claim],
    evidence: Sequence[EvidenceItem],
    opinions: Sequence[Opinion],
    answers: AnswerSet | None,
    lean: Lean | None,
    undecided: UndecidedPolicy = UndecidedPolicy.LEAN,
    found: Mapping[str, EvidenceFinding] | None = None,
) -> str:
    """An undecided verdict: says so first, lists what was searched, and calls its label a lean, not a finding.

    With evidence supplied, it says what the reader could not align (the evidence mentions what the
    claims name, but no sentence states it as they do: a paraphrase, or a claim the evidence lacks).
    """
    open_ = _open_claims(assessment, claims)
    what = "this claim" if len(open_) <= 1 else f"these {len(open_)} claims"
    text = [f"{label}.\nNot verified: nothing I could check decides {what}."]
    if open_:
        text.append("Not decided: " + "; ".join(quote(t) for t in open_[:MAX_CITED]) + ".")
    unaligned = [f.reason for i in assessment.unsupported_ids if (f := (found or {}).get(i)) is not None and f.reason]
    if unaligned:
        said = "; ".join(dict.fromkeys(unaligned[:MAX_CITED]))
        text.append(f"{said[:1].upper()}{said[1:]}.")
    text.append(f"Searched: {_searched(evidence)}.")
    if answers is not None:
        text.append(answers.sentence())
    said = "; ".join(
        _opinion(o) for o in opinions if o.error is None and o.label is not None and o.source != OpinionSource.KB_CHECK
    )
    p = None if lean is None else lean.confidence if lean.label == Label.FACTUAL else 1.0 - lean.confidence
    if undecided != UndecidedPolicy.LEAN:
        rule = f"the undecided policy's ({undecided})" + (f"; the lean is P(FACTUAL) {p:.2f}" if p is not None else "")
        rule += ";"
    elif lean is not None:
        rule = f"{lean.rule}, P(FACTUAL) {p:.2f},"
    else:
        rule = "the undecided policy's"
    text.append(f"The label is {rule} not a finding" + (f" ({said})." if said else "."))
    return " ".join(text)


def _unsupported(
    assessment: Assessment,
    label: Label,
    response: str,
    claims: Sequence[Claim],
    evidence: Sequence[EvidenceItem],
    answers: AnswerSet | None,
    found: Mapping[str, EvidenceFinding] | None = None,
) -> str:
    """An unsupported verdict: which claims the supplied evidence does not state, what it lacks, what it says."""
    lacking = {c.claim_id for c in assessment.claims if c.unsupported}
    open_ = [c.text for c in claims if c.id in lacking] or _open_claims(assessment, claims)
    found = found or {}
    lacks = [c.unsupported for c in assessment.claims if c.unsupported] or [
        f.reason
        for i in assessment.unsupported_ids
        if (f := found.get(i)) is not None and (f.missing or f.read_by != "embedded")
    ]
    supplied = [e for e in evidence if e.source == EvidenceSource.SUPPLIED]
    if assessment.unanswered:
        why = f"{assessment.unanswered[:1].upper()}{assessment.unanswered[1:]}"
        text = [f"{label}.\nThe answer {_answer(response)} does not answer the question. {why}."]
        quoted = [q for f in found.values() if f.decision == "supported" for q in sentences(f)][:MAX_CITED]
        if quoted:
            text.append(f"What it does state is in the evidence: {'; '.join(dict.fromkeys(quoted))}.")
        text.append("Therefore, the answer is not supported by the evidence.")
        return " ".join(text)
    text = [f"{label}.\nThe answer {_answer(response)} is not supported by the supplied evidence."]
    if answers is not None:
        text.append(_answer_sentence(answers, evidence, label))
    if open_:
        text.append("No item of it was found to state " + " or ".join(quote(t) for t in open_[:MAX_CITED]) + ".")
    if lacks:
        text.append(f"{lacks[0][:1].upper()}{lacks[0][1:]}.")
    if supplied:
        cited = [(e.text, e.id) for e in supplied[:2]]
        text.append(f"The evidence says: {cite(cited)}.")
    if model := read_by(found, assessment.unsupported_ids):
        text.append(model)
    text.append("Therefore, the answer is not supported by the evidence.")
    return " ".join(text)


def _answer_sentence(answers: AnswerSet, evidence: Sequence[EvidenceItem], label: Label) -> str:
    """The answer-set sentence, citing the triples that hold the answers; says when other sources outweighed it."""
    wanted = set(answers.answers)
    ids = [e.id for e in evidence if e.ref and wanted & {p.strip() for p in e.ref.split(" | ")}]
    text = answers.sentence()[:-1] + (f" [{', '.join(ids[:MAX_CITED])}]" if ids else "")
    against = answers.coverage < 1.0 if label == Label.FACTUAL else answers.coverage == 1.0
    return text + ("; the other sources outweighed this." if against else ".")


__all__ = ["compose", "proof_citations"]
