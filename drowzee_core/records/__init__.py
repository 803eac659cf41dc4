"""The typed contract: records that pass between stages, their enums, and provenance sidecars.

Generators write these records, the runner, scorers and verifier read them, and every file a
command writes carries an `OUT.meta.json` sidecar (`Provenance`). JSON Schemas of the public records
are exported to `docs/schemas/` by `drowzee schemas export`.
"""

from drowzee_core.records.answered import (
    DrowzeeAnswered,
    DrowzeeAnsweredPeer,
    DrowzeeQuestion,
    ERBenchAnswered,
    ERBenchHumanLabel,
    FactCHDAnswered,
)
from drowzee_core.records.cases import (
    CaseBase,
    ERBenchFD,
    ERBenchJoin,
    ERBenchQuestion,
    Interval,
    QACase,
    TemporalCase,
    TemporalConclusion,
    TemporalEventRef,
    TemporalParams,
)
from drowzee_core.records.enums import Grounding, Label, ProofStatus, Split, YesNo
from drowzee_core.records.judge import JudgeExample, JudgeScore, Support
from drowzee_core.records.judged import (
    DrowzeeJudgement,
    ERBenchJudgement,
    FactCHDJudgement,
    JudgedDrowzeeRow,
    JudgedERBenchRow,
    JudgedFactCHDRow,
)
from drowzee_core.records.pair import ComparisonTruth, PairTruth, QRPair, SetOperand, SetTruth
from drowzee_core.records.peer_answers import read_answers
from drowzee_core.records.proof import KBClaim, ProofNode
from drowzee_core.records.provenance import Provenance, provenance, read_sidecar, sidecar_path, write_sidecar
from drowzee_core.records.readers import RecordError, read_dicts, read_records, validate_row
from drowzee_core.records.triple import Encoder, Triple
from drowzee_core.records.verdict import (
    ClaimVerdict,
    DecidedBy,
    Decision,
    EvidenceItem,
    EvidenceSource,
    ModelRef,
    Opinion,
    OpinionSource,
    UndecidedPolicy,
    Verdict,
    VerdictProvenance,
    VerifyRequest,
)

__all__ = [
    "CaseBase",
    "ClaimVerdict",
    "ComparisonTruth",
    "DecidedBy",
    "Decision",
    "DrowzeeAnswered",
    "DrowzeeAnsweredPeer",
    "DrowzeeJudgement",
    "DrowzeeQuestion",
    "ERBenchAnswered",
    "ERBenchFD",
    "ERBenchHumanLabel",
    "ERBenchJoin",
    "ERBenchJudgement",
    "ERBenchQuestion",
    "Encoder",
    "EvidenceItem",
    "EvidenceSource",
    "FactCHDAnswered",
    "FactCHDJudgement",
    "Grounding",
    "Interval",
    "JudgeExample",
    "JudgeScore",
    "JudgedDrowzeeRow",
    "JudgedERBenchRow",
    "JudgedFactCHDRow",
    "KBClaim",
    "Label",
    "ModelRef",
    "Opinion",
    "OpinionSource",
    "PairTruth",
    "ProofNode",
    "ProofStatus",
    "Provenance",
    "QACase",
    "QRPair",
    "RecordError",
    "SetOperand",
    "SetTruth",
    "Split",
    "Support",
    "TemporalCase",
    "TemporalConclusion",
    "TemporalEventRef",
    "TemporalParams",
    "Triple",
    "UndecidedPolicy",
    "Verdict",
    "VerdictProvenance",
    "VerifyRequest",
    "YesNo",
    "provenance",
    "read_answers",
    "read_dicts",
    "read_records",
    "read_sidecar",
    "sidecar_path",
    "validate_row",
    "write_sidecar",
]
