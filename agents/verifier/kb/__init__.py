"""The KB check's work on the KB thread (`drowzee_core.kb.gate.KBGate`: one thread for the store and Prolog).

`prove` proves a named claim or decides a comparison, `sets` a listed answer's completeness, `counts`
how many values a name has, `supplied` a pair's triples read as complete for a relation, `dates` a claim
put at a year, `numbers` a stated number with a tolerance (the answers supplied triples give to a "which ..."
question are read in `agents.reading.claims.answer_set`).
"""

from typing import TYPE_CHECKING

from drowzee_core.lazy import lazy_exports

if TYPE_CHECKING:
    from agents.verifier.kb.counts import count_values
    from agents.verifier.kb.dates import at_year
    from agents.verifier.kb.numbers import near
    from agents.verifier.kb.prove import Decided, prove_claim
    from agents.verifier.kb.sets import count_at_least, set_complete
    from agents.verifier.kb.supplied import distinct_values

_EXPORTS = {
    "Decided": "prove",
    "prove_claim": "prove",
    "count_at_least": "sets",
    "count_values": "counts",
    "set_complete": "sets",
    "distinct_values": "supplied",
    "at_year": "dates",
    "near": "numbers",
}
__getattr__ = lazy_exports(__name__, {k: f"{__name__}.{m}" for k, m in _EXPORTS.items()})
__all__ = [
    "Decided",
    "at_year",
    "count_at_least",
    "count_values",
    "distinct_values",
    "near",
    "prove_claim",
    "set_complete",
]
