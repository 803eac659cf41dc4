"""Stage 1 of the reading floor, clauses: a response made into the plain statements it asserts (pure, spaCy parses).

Hedges, stance phrases and connectives are dropped; non-restrictive relative clauses, joined clauses and a
verb's several arguments are said apart, one fact a sentence; a value said of two names is said of each.
The interface: `plain` (a response -> `Plain`, its statements with their spans) and `STANCE`.
"""

from agents.reading.clauses.discourse import STANCE, Plain, plain

__all__ = [
    "STANCE",
    "Plain",
    "plain",
]
