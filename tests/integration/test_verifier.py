"""The real verifier graph: Prolog over the seed KB and a pair's scratch KB, the trained judge, real embeddings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agents.verifier.runner import Verifier
from cli.main import app
from drowzee_core.kb.model import Stats
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.provenance import read_sidecar
from drowzee_core.records.verdict import EvidenceSource, VerifyRequest

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_a_refuted_year_is_non_factual_with_the_proof(verifier: Verifier) -> None:
    v = verifier.verify(VerifyRequest(query="When was Hirohito born?", response="Hirohito was born in 1886."))
    assert v.label == Label.NON_FACTUAL and not v.degraded
    [claim] = v.claims
    assert claim.status == ProofStatus.CONTRADICTED and claim.proof is not None
    assert claim.span == (0, len("Hirohito was born in 1886."))
    ids = {e.id for e in v.evidence}
    assert {"K1"} <= ids and all(i in ids for c in v.claims for i in c.evidence_ids)
    assert "1901" in next(e.text for e in v.evidence if e.id == "K1")
    assert v.explanation.startswith("NON-FACTUAL.") and "[K1]" in v.explanation
    assert v.provenance.kb_fingerprint and {"claims", "kb_check", "seeker", "verdict_manager"} <= set(
        v.provenance.timings
    )


def test_a_proved_claim_is_factual(verifier: Verifier) -> None:
    v = verifier.verify(VerifyRequest(query="When was Hirohito born?", response="Hirohito was born in 1901."))
    assert v.label == Label.FACTUAL and v.claims[0].status == ProofStatus.SUPPORTED


def test_a_short_answer_is_read_with_the_query(verifier: Verifier) -> None:
    v = verifier.verify(VerifyRequest(query="What is the year of birth of Hirohito?", response="1886."))
    assert v.label == Label.NON_FACTUAL
    assert [c.status for c in v.claims] == [ProofStatus.CONTRADICTED]


@pytest.mark.parametrize(
    ("answer", "label", "status"),
    [("Yes.", Label.FACTUAL, ProofStatus.SUPPORTED), ("No, it did not.", Label.NON_FACTUAL, ProofStatus.CONTRADICTED)],
)
def test_a_temporal_question_is_decided_by_mtl_over_the_kbs_dated_events(
    verifier: Verifier, answer: str, label: Label, status: ProofStatus
) -> None:
    # Hirohito's lifetime (1901-1989, from his birth and death years): some year 1955-1965 falls in it
    query = (
        "Did Event1 finally happen within the time frame of the 5th to the 15th after the year 1950 onwards; "
        "where Event1 is the lifetime of Hirohito happen?"
    )
    v = verifier.verify(VerifyRequest(query=query, response=answer))
    assert v.label == label and not v.degraded
    [claim] = [c for c in v.claims if c.proof is not None]
    assert claim.status == status and claim.proof is not None and claim.proof.rule == "mtl"
    assert "Finally[5, 15](Atom(the lifetime of Hirohito))" in claim.proof.text
    assert any("The lifetime of Hirohito holds in 1901-1989." in e.text for e in v.evidence)


def test_a_temporal_question_about_an_unknown_event_is_left_undecided(verifier: Verifier) -> None:
    query = "At year 1950, did Event1 not happen; where Event1 is the coronation of Zyx Qwert happen?"
    v = verifier.verify(VerifyRequest(query=query, response="Yes."))
    assert all(c.status == ProofStatus.UNKNOWN for c in v.claims) and v.claims


def test_supplied_triples_decide_in_a_scratch_kb(verifier: Verifier) -> None:
    """Facts the seed KB lacks, supplied with the pair, are proved in the pair's own Prolog module."""
    evidence: list[list[str] | str] = [["Zyx Qwert", "year of birth", "1950"]]
    v = verifier.verify(VerifyRequest(query="", response="Zyx Qwert was born in 1949.", evidence=evidence))
    assert v.label == Label.NON_FACTUAL
    assert v.claims[0].status == ProofStatus.CONTRADICTED
    assert any(e.id == "S1" and e.source == EvidenceSource.SUPPLIED for e in v.evidence)
    again = verifier.verify(VerifyRequest(query="", response="Zyx Qwert was born in 1950.", evidence=evidence))
    assert again.label == Label.FACTUAL
    alone = verifier.verify(VerifyRequest(query="", response="Zyx Qwert was born in 1950."))
    assert alone.claims[0].status == ProofStatus.UNKNOWN, "supplied facts must not leak into the user's KB"


def test_bad_evidence_degrades_but_answers(verifier: Verifier) -> None:
    bad: list[list[str] | str] = [["a", "b", "c", "d"]]
    v = verifier.verify(VerifyRequest(query="", response="Hirohito was born in 1886.", evidence=bad))
    assert v.label == Label.NON_FACTUAL and v.degraded
    assert any("prepare" in r for r in v.degraded_reasons)


def test_batch_writes_a_verdict_or_an_error_per_row(seed_kb: tuple[Path, Stats], tmp_path: Path) -> None:
    """`drowzee batch`: every row gets a line; bad rows become error records and the exit code says so."""
    rows = [
        json.dumps({"id": "a", "query": "When was Hirohito born?", "response": "Hirohito was born in 1886."}),
        "{not json",
        json.dumps({"id": "c", "query": "When was Hirohito born?"}),
        json.dumps(
            {"id": "d", "query": "", "response": "Zyx was born in 1949.", "ev": [["Zyx", "year of birth", "1950"]]}
        ),
    ]
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("\n".join(rows) + "\n", encoding="utf-8")
    args = ["batch", str(src), "--out", str(out), "--kb", str(seed_kb[0]), "--no-guardian", "--evidence-field", "ev"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 1, res.output
    lines = [json.loads(x) for x in out.read_text("utf-8").splitlines()]
    assert [x.get("id") for x in lines] == ["a", "2", "c", "d"]
    assert lines[0]["verdict"]["label"] == "NON-FACTUAL" and lines[3]["verdict"]["label"] == "NON-FACTUAL"
    assert lines[1]["error"] == "in.jsonl:2: not valid JSON (Expecting property name enclosed in double quotes)"
    assert lines[2]["error"] == "in.jsonl:3: missing field 'response'"
    meta = read_sidecar(out)
    assert meta is not None and meta.counts["verdicts"] == {"FACTUAL": 0, "NON-FACTUAL": 2}
    assert (meta.counts["rows"], meta.counts["errors"], meta.counts["degraded"]) == (4, 2, 0)
    assert meta.counts["this_run"]["rows"] == 4 and meta.counts["metrics"] is None
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 2 and "--resume" in again.output and "--overwrite" in again.output
    before = out.read_text("utf-8")
    resumed = CliRunner().invoke(app, [*args, "--resume"])
    assert resumed.exit_code == 1 and out.read_text("utf-8") == before, "a finished run has nothing to add"
