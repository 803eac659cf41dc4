"""LangGraph triangulation (Truth Seeker, Truth Guardian, KB check, Verdict Manager).

Empty until the triangulation issue: the KB check it will call is `drowzee_core.logic.Reasoner.prove`.
"""
