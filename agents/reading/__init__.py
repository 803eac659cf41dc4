"""Reading free text into KB claims: linked names, catalog relations by their cues, typed values, polarity.

`Lexicon` holds the relation patterns derived from the catalog's templates; `read` turns one parsed
sentence into `Reading`s; `SentenceReader` (in `agents.reading.claims`) applies it to a response.
What the readers make of a response is a list of `Claim`s (`agents.reading.claim_types`: one record
per kind).
"""

from agents.reading.claim_types import Claim, ClaimKind, ClaimOrigin
from agents.reading.lexicon import Lexicon, Pattern
from agents.reading.reader import Mention, Reading, mentions, nlp, read

__all__ = ["Claim", "ClaimKind", "ClaimOrigin", "Lexicon", "Mention", "Pattern", "Reading", "mentions", "nlp", "read"]
