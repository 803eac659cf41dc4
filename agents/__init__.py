"""The triangulation verifier (LangGraph), used through `agents.verifier.runner.Verifier`.

A graph of claims, KB check, Truth Seeker, Truth Guardian and Fact Verdict Manager (`agents.verifier.graph`).

Settings come from `agents.verifier.settings.VerifierSettings` (explicit > `DROWZEE_VERIFY_*` > defaults); the
record that goes in is `drowzee_core.records.VerifyRequest`, the record that comes out `Verdict`.
Model, judge and proof calls are cached (`agents.verifier.cache`) and counted per role (`agents.verifier.accounting`,
`Verifier.call_stats()`).

`agents.loop` is the second graph, the closed loop: generate cases, ask the model under test, verify its
answers, score both against the proofs, report (`drowzee benchmark`).
"""

__all__: list[str] = []
