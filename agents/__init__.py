"""The triangulation verifier (LangGraph), used through `agents.verifier.Verifier`.

A graph of claims, KB check, Truth Seeker, Truth Guardian and Fact Verdict Manager (`agents.graph`).

Settings come from `agents.context.VerifierSettings` (explicit > `DROWZEE_VERIFY_*` > defaults); the
record that goes in is `drowzee_core.records.VerifyRequest`, the record that comes out `Verdict`.
Model, judge and proof calls are cached (`agents.call_cache`) and counted per role (`agents.calls`,
`Verifier.call_stats()`).

`agents.loop` is the second graph, the closed loop: generate cases, ask the model under test, verify its
answers, score both against the proofs, report (`drowzee benchmark`).
"""

__all__: list[str] = []
