"""The reading floor: a response (and its query, and any supplied evidence) read into KB claims.

The stages run forward, each importing only those before it (`tests/unit/test_layers.py` checks it):

1. `clauses`: a response made into the plain statements it asserts, one fact a sentence;
2. `mentions`: the KB names and the typed values each sentence holds, and what stands for a name said before;
3. `candidates`: claims between mentions, a relation chosen by its declared wording (`Reading`, the one
   reading type); `templates` reads sentences said in the catalog's own templates, beside it;
4. `questions`: what a query asks, and a yes / no question read as logic over linked names;
5. `claims`: a response read into `Claim` records (`agents.reading.claim_types`, the one claim type);
6. `evidence`: a claim read against supplied evidence sentences.

Each stage's package names its interface (its `__all__`); other stages and the verifier import from it.
"""
