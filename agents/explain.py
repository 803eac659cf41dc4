"""The Manager's explanation without a capable model (pure): composed from decisive evidence only.

FactCHD's reason shape: the label; "The answer that ... is correct / incorrect."; what the evidence
says, citing evidence ids (proof facts, supplied or retrieved items); a conclusion. Every sentence
after the first two is evidence text or a proof sentence: nothing is invented.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from agents.aggregate import Decision
from agents.answer_set import AnswerSet
from agents.schemas import Claim, KBResult
from drowzee_core.generate.factchd_record import NO_FALLACY
from drowzee_core.generate.templates_kb import clause
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import EvidenceItem, Opinion, OpinionSource

MAX_ANSWER_CHARS = 300
_QUOTE = re.compile(r"^(?:yes|no)\b", re.IGNORECASE)
"""A Yes / No answer is quoted, not read as a statement ("The answer "No. ..." is ...")."""
MAX_CITED = 4


def _cite(texts: Sequence[tuple[str, str | None]]) -> str:
    parts = [f"{t.rstrip('.')} [{i}]" if i else t.rstrip(".") for t, i in texts]
    return "; ".join(parts)


def _answer(response: str) -> str:
    """The response after "The answer": `that <statement>`, or a Yes / No answer quoted ("No. Both ...")."""
    text = " ".join(response.split())
    if len(text) > MAX_ANSWER_CHARS:
        text = text[: MAX_ANSWER_CHARS - 3].rsplit(" ", 1)[0] + "..."
    body = clause(text)
    if _QUOTE.search(body):
        return f'"{text}"'
    return f"that {body}"


def proof_citations(
    results: Sequence[KBResult], leaf_ids: Mapping[str, str], want: ProofStatus
) -> list[tuple[str, str | None]]:
    """(sentence, evidence id) of the proof leaves behind the claims with status `want`."""
    out: list[tuple[str, str | None]] = []
    for r in results:
        if r.status != want or r.proof is None:
            continue
        nodes = r.proof.premises or [r.proof]
        for node in nodes:
            leaf = node
            while leaf.premises and len(leaf.premises) == 1:
                leaf = leaf.premises[0]
            cite = (leaf.text if not leaf.premises else node.text, leaf_ids.get(leaf.text))
            if cite not in out:
                out.append(cite)
    return out


_NEGATED = "It is not the case that "


def _not(claim: str) -> str:
    """The sentence saying a refuted claim is false ("So it is not the case that ..."), without a double negation."""
    if claim.startswith(_NEGATED):
        return f"So {clause(claim[len(_NEGATED) :])} holds."
    return f"So it is not the case that {clause(claim)}."


def compose(
    decision: Decision,
    response: str,
    claims: Sequence[Claim],
    results: Sequence[KBResult],
    evidence: Sequence[EvidenceItem],
    opinions: Sequence[Opinion],
    answers: AnswerSet | None = None,
) -> str:
    """The explanation of a decision, citing evidence ids (and the supplied answer set, when there is one)."""
    label = decision.label
    head = f"{label}.\nThe answer {_answer(response)} is {'correct' if label == Label.FACTUAL else 'incorrect'}."
    leaf_ids = {e.text: e.id for e in evidence}
    by_id = {c.id: c for c in claims}
    if decision.rule == "proof":
        want = ProofStatus.SUPPORTED if label == Label.FACTUAL else ProofStatus.CONTRADICTED
        cites = proof_citations(results, leaf_ids, want)[:MAX_CITED]
        body = f"According to the evidence, {_cite(cites)}." if cites else ""
        if label == Label.NON_FACTUAL:
            wrong = [by_id[r.claim_id].text for r in results if r.status == want and r.claim_id in by_id]
            body += f" {_not(wrong[0])}" if wrong else ""
            if not wrong:  # no claim refuted: the KB check's own reason (an answer given both ways)
                why = [o.explanation for o in opinions if o.source == OpinionSource.KB_CHECK and o.explanation]
                body += f" {why[0][:1].upper()}{why[0][1:]}." if why else ""
            tail = "Therefore, the answer contains an incorrect conclusion."
        else:
            tail = NO_FALLACY
        return " ".join(x for x in (head, body.strip(), tail) if x)
    proved = proof_citations(results, leaf_ids, ProofStatus.SUPPORTED)[:MAX_CITED] if label == Label.FACTUAL else []
    ranked = sorted((e for e in evidence if e.score is not None), key=lambda e: -(e.score or 0.0))
    top: list[tuple[str, str | None]] = [(e.text, e.id) for e in ranked[:2] or evidence[:2]]
    cites = proved or top  # a FACTUAL answer's proved claims say more than the best-ranked retrieved items
    body = f"According to the evidence, {_cite(cites)}." if cites else "No evidence was found."
    if answers is not None:  # what the supplied answer set says outweighs the best-ranked retrieved items
        body = _answer_sentence(answers, evidence, label) + (f" {body}" if proved else "")
    said = "; ".join(
        f"{o.source}: {o.label or 'no label'}" + (f" ({o.confidence:.2f})" if o.confidence is not None else "")
        for o in opinions
        if o.error is None
    )
    tail = f"Decided by {decision.rule}" + (f" ({said})." if said else ".")
    if label == Label.NON_FACTUAL:
        tail += " Therefore, the answer is not supported by the evidence."
    return " ".join((head, body, tail))


def _answer_sentence(answers: AnswerSet, evidence: Sequence[EvidenceItem], label: Label) -> str:
    """The answer-set sentence, citing the triples that hold the answers; says when other sources outweighed it."""
    wanted = set(answers.answers)
    ids = [e.id for e in evidence if e.ref and wanted & {p.strip() for p in e.ref.split(" | ")}]
    text = answers.sentence()[:-1] + (f" [{', '.join(ids[:MAX_CITED])}]" if ids else "")
    against = answers.coverage < 1.0 if label == Label.FACTUAL else answers.coverage == 1.0
    return text + ("; the other sources outweighed this." if against else ".")


__all__ = ["compose", "proof_citations"]
