"""Natural wording of generated responses: the same facts and labels in many surface forms.

`drowzee generate factchd --style natural` re-words each response with `restyle`: catalog forms of
each fact (`clauses`), exact number and year forms, hedges and short answers (`words`), and facts
Prolog proves as distractors. Nothing under `agents/` may import this package: the verifier's reader
must never see the generator's wording (tests/unit/test_natural_imports.py).
"""

from drowzee_core.generate.natural.restyle import Restyler, restyle

__all__ = ["Restyler", "restyle"]
