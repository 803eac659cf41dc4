"""Stage 5 of the reading floor, claims: a response read into claim records, the one `Claim` type.

`read_response` reads a response (with its query and any supplied triples) stage by stage into `Claim`s
(`agents.reading.claim_types`): the template reader, the answers to the question (`answer_claims`,
`answer_set`), then `read_free` for the free sentences, which `SentenceReader` reads with the stages
below. The verifier's claims node is a call of `read_response`.
"""

from agents.reading.claims.answer_set import AnswerSet, evidence_answers
from agents.reading.claims.free import read_free
from agents.reading.claims.response import HEADING, MAX_PARSE_CHARS, ResponseServices, read_response
from agents.reading.claims.sentence_reader import SentenceReader

__all__ = [
    "HEADING",
    "MAX_PARSE_CHARS",
    "AnswerSet",
    "ResponseServices",
    "SentenceReader",
    "evidence_answers",
    "read_free",
    "read_response",
]
