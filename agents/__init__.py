"""LangGraph triangulation (Truth Seeker, Truth Guardian, KB check, Verdict Manager): not built yet.

This package is empty until the triangulation issue. The KB check it will call is
`drowzee_core.logic.Reasoner.prove`; its output record is `drowzee_core.records.Verdict`.
"""

__all__: list[str] = []
