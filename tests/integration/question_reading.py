"""Helpers of the question-reading tests: a KB that knows nothing, a question read over supplied triples, a verdict."""

from __future__ import annotations

from collections.abc import Sequence

from agents.reading.candidates.reader import Reading
from agents.reading.claims.sentence_reader import SentenceReader
from agents.reading.mentions.known import Known
from agents.reading.questions import question_text
from agents.verifier.runner import Verifier
from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import DecidedBy, Decision, VerifyRequest


class NoKB:
    """A KB that resolves no name: only the supplied triples' names are known."""

    def resolve(self, name: str, k: int) -> list[int]:
        return []


def readings(reader: SentenceReader, query: str, triples: Sequence[Sequence[str]]) -> list[Reading]:
    """The readings of a yes / no question over supplied triples and no KB."""
    text = question_text(query)
    assert text is not None
    lexicon = reader.with_labels([t[1] for t in triples])
    found: list[Reading] = reader.ask(text, Known(NoKB(), triples), lexicon, triples)  # type: ignore[arg-type]
    return found


def assert_proved(
    verifier: Verifier, query: str, evidence: list[list[str]], answer: str, label: Label, decision: Decision
) -> None:
    """The verdict of (query, answer) with `evidence` has `label` and `decision`, and a proof decided a claim."""
    v = verifier.verify(VerifyRequest(query=query, response=answer, evidence=evidence))
    assert (v.label, v.decision) == (label, decision), v.explanation
    assert any(c.decided_by == DecidedBy.PROOF for c in v.claims), v.explanation
