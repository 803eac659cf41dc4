"""The verifier's input and output records (shape reserved for the triangulation verifier)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.pair import EvidenceItemIn
from drowzee_core.records.proof import ProofNode

MAX_TEXT = 20_000
"""Longest query or response, in characters, that the verifier accepts."""
MAX_EVIDENCE = 200
"""Most evidence items one request may supply."""
MAX_UNDECIDED_CONFIDENCE = 0.70
"""Highest confidence an `undecided` verdict may carry: its label is the models' lean, not a finding."""


class EvidenceSource(StrEnum):
    """Where an evidence item came from."""

    KB = "kb"
    CORPUS = "corpus"
    WEB = "web"
    SUPPLIED = "supplied"


class Decision(StrEnum):
    """What decided the response, as a fact-checker says it (FEVER / RefChecker style)."""

    SUPPORTED = "supported"
    """Every claim that could be checked is supported (by a proof, the evidence, or a trusted judge)."""
    REFUTED = "refuted"
    """A claim is contradicted (by a proof or the evidence), or the response contradicts itself."""
    UNSUPPORTED = "unsupported"
    """Evidence was supplied and a claim is not supported by it (FactCHD's "with facts" convention)."""
    UNDECIDED = "undecided"
    """Nothing decided: the label is the `undecided` policy's (by default the models' lean), shown as "not verified"."""


class DecidedBy(StrEnum):
    """What decided one claim's status."""

    PROOF = "proof"
    """Prolog proved or refuted it over the KB or the pair's supplied triples."""
    EVIDENCE = "evidence"
    """An aligned sentence of the evidence states it, or conflicts with it."""
    JUDGE = "judge"
    """The grounded judge, outside the band where its dev precision is too low to decide."""
    MODEL = "model"
    """A capable model (the `manager` role's arbitration)."""


class UndecidedPolicy(StrEnum):
    """Which label an `undecided` verdict carries (its decision stays `undecided`)."""

    LEAN = "lean"
    """The models' lean: the calibrated regression over the Seeker's and Guardian's signals."""
    FACTUAL = "factual"
    """Always FACTUAL (nothing found against it)."""
    NON_FACTUAL = "non-factual"
    """Always NON-FACTUAL (nothing verified counts as a hallucination)."""


class OpinionSource(StrEnum):
    """The parts of the triangulation that give an opinion."""

    KB_CHECK = "kb_check"
    SEEKER = "seeker"
    GUARDIAN = "guardian"
    MANAGER = "manager"


class VerifyRequest(BaseModel):
    """What the verifier checks: a query, a response and optional evidence."""

    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(default=None, description="Caller's id, echoed in the verdict.")
    query: str = Field(max_length=MAX_TEXT, description="The question the response answers.")
    response: str = Field(min_length=1, max_length=MAX_TEXT, description="The response to check.")
    evidence: list[EvidenceItemIn] | str | None = Field(
        default=None, description="Supplied evidence: text, a list of texts, or KG triples `[[s, r, o], ...]`."
    )


class EvidenceItem(BaseModel):
    """One piece of evidence the verifier gathered or was given."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Id the explanation cites (e.g. `E3`).")
    source: EvidenceSource = Field(description="Where it came from.")
    text: str = Field(description="The evidence as text (a triple is verbalized).")
    score: float | None = Field(default=None, description="Retrieval or judge score, when there is one.")
    ref: str | None = Field(default=None, description="URL, document path or KB fact the text comes from.")


class ClaimReading(BaseModel):
    """How a claim was read: its shape, the linked names and relation, or why its sentence stayed unread."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(description="triple / common / count / comparison / set / temporal / text (unread).")
    read_by: str = Field(description="template / reader / model / query / extractor / sentence (no reader read it).")
    subject: str | None = Field(default=None, description="The linked subject, as written.")
    relation: str | None = Field(default=None, description="The catalog relation or the supplied label it links to.")
    object: str | None = Field(default=None, description="The linked object or value, as written.")
    negated: bool = Field(default=False, description="The claim is that the relation does not hold.")
    why_unread: str | None = Field(default=None, description="Why the sentence was left unread, for a text claim.")


class CitedSentence(BaseModel):
    """One evidence sentence a finding cites: `S2.3` is the third sentence of item `S2` (`S2` when it has one)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="The sentence's id.")
    text: str = Field(description="The sentence as supplied.")


class EvidenceFinding(BaseModel):
    """What the evidence reader found for one claim in the supplied evidence (`agents.reading.evidence.support`)."""

    model_config = ConfigDict(extra="forbid")

    decision: str = Field(description="supported / refuted / not enough info.")
    reason: str = Field(description="Why, citing sentence ids: the conflicting value, what matched or what is missing.")
    sentences: list[CitedSentence] = Field(default_factory=list, description="The sentences it rests on.")
    missing: list[str] = Field(default_factory=list, description="Units of the claim the evidence does not hold.")
    absent: list[str] = Field(
        default_factory=list,
        description="Content units (names, numbers, the predicate verb) no sentence of the evidence mentions: with"
        " any, a `not enough info` claim is unsupported; with none, it is left open.",
    )
    read_as: str | None = Field(
        default=None,
        description='The statement a short answer was read as, joined with its question ("The Rhine flows through'
        ' Basel."); None when the claim was read as written.',
    )
    p_supported: float | None = Field(
        default=None, description="The support rule's probability from the matched units."
    )
    read_by: str = Field(
        default="embedded",
        description="Who read the evidence: `embedded` (the reader in agents/reading), or the role and model of an"
        " LLM reading (`judge: gpt-4o-mini`).",
    )


class ClaimVerdict(BaseModel):
    """One atomic claim of the response and what decided it."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(description="The claim, self-contained.")
    span: tuple[int, int] | None = Field(default=None, description="Character span in the response, if located.")
    status: ProofStatus = Field(description="supported / contradicted / unknown.")
    decided_by: DecidedBy | None = Field(
        default=None, description="What decided `status`: proof / evidence / judge / model; None when nothing did."
    )
    decided_ids: list[str] = Field(
        default_factory=list, description="The evidence ids that decided it (proof leaves, the deciding sentences)."
    )
    evidence_ids: list[str] = Field(default_factory=list, description="Evidence items that bear on the claim.")
    proof: ProofNode | None = Field(default=None, description="Prolog proof, when the KB check decided it.")
    reading: ClaimReading | None = Field(default=None, description="How the claim was read (`ClaimReading`).")
    finding: EvidenceFinding | None = Field(
        default=None, description="What the supplied evidence says of the claim (`EvidenceFinding`), when read."
    )


class Opinion(BaseModel):
    """One source's opinion on the response, or the record of its failure."""

    model_config = ConfigDict(extra="forbid")

    source: OpinionSource = Field(description="Which part of the triangulation gave it.")
    label: Label | None = Field(default=None, description="Its label; None when it gave none.")
    confidence: float | None = Field(default=None, ge=0.0, le=1.0, description="Its probability of `label`.")
    explanation: str = Field(default="", description="Its reasons.")
    model: str | None = Field(default=None, description="Model name behind it, when a model was used.")
    error: str | None = Field(default=None, description="Why there is no opinion (failure, timeout, parse error).")
    counted: bool = Field(
        default=True,
        description="Whether the Manager weighed it (False: its measured dev reliability is at its constant baseline).",
    )
    reliability: float | None = Field(
        default=None, ge=0.0, le=1.0, description="Its balanced accuracy on the Manager's dev mix, when measured."
    )


class ModelRef(BaseModel):
    """Which model served a role."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(description="Model name as the endpoint knows it.")
    base_url: str | None = Field(default=None, description="Endpoint (None for in-process models).")
    adapter_sha256: str | None = Field(default=None, description="Hash of the adapter weights, when one is used.")


class VerdictProvenance(BaseModel):
    """What produced a verdict, so it can be reproduced."""

    model_config = ConfigDict(extra="forbid")

    roles: dict[str, ModelRef] = Field(default_factory=dict, description="Role name -> the model that served it.")
    policy: str | None = Field(default=None, description="Verdict Manager policy.")
    undecided_policy: UndecidedPolicy | None = Field(
        default=None, description="Where the label of an `undecided` verdict came from (`--undecided`)."
    )
    kb_fingerprint: str | None = Field(default=None, description="Fingerprint of the KB the claims were proved on.")
    seed: int | None = Field(default=None, description="Seed of any sampling.")
    code_version: str | None = Field(default=None, description="Git commit of the code that ran.")
    timings: dict[str, float] = Field(default_factory=dict, description="Seconds spent per node.")


class Verdict(BaseModel):
    """The verifier's answer: a label, why, and everything it rests on."""

    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(default=None, description="The request's id.")
    decision: Decision = Field(description="supported / refuted / unsupported / undecided: what decided the label.")
    label: Label = Field(
        description="FACTUAL or NON-FACTUAL (FactCHD's labels); for `undecided` the `undecided` policy's label."
    )
    confidence: float = Field(
        ge=0.0, le=1.0, description="Calibrated probability of `label` (at most 0.70 when `undecided`)."
    )
    lean: Label | None = Field(
        default=None, description="The models' lean (the calibrated regression), reported when `undecided`."
    )
    explanation: str = Field(description="FactCHD-shaped reason citing evidence ids and proofs.")
    claims: list[ClaimVerdict] = Field(default_factory=list, description="The response's claims.")
    evidence: list[EvidenceItem] = Field(default_factory=list, description="Evidence gathered or supplied.")
    proofs: list[ProofNode] = Field(default_factory=list, description="Prolog proofs that decided claims.")
    opinions: list[Opinion] = Field(default_factory=list, description="Each source's opinion or failure.")
    degraded: bool = Field(default=False, description="True when a source failed and the verdict lacks it.")
    degraded_reasons: list[str] = Field(default_factory=list, description="What failed, one line each.")
    provenance: VerdictProvenance = Field(default_factory=VerdictProvenance, description="What produced it.")


__all__ = [
    "MAX_EVIDENCE",
    "MAX_TEXT",
    "MAX_UNDECIDED_CONFIDENCE",
    "CitedSentence",
    "ClaimReading",
    "ClaimVerdict",
    "DecidedBy",
    "Decision",
    "EvidenceFinding",
    "EvidenceItem",
    "EvidenceSource",
    "ModelRef",
    "Opinion",
    "OpinionSource",
    "UndecidedPolicy",
    "Verdict",
    "VerdictProvenance",
    "VerifyRequest",
]
