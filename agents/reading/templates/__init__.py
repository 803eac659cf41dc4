"""The reading floor's template stage: statements and questions read back through the catalog's own templates.

`statements` compiles each relation's templates into bounded regexes and reads a response's sentences
into `Statement`s; `questions` composes a query with its short answer (`QueryReader`); `set_questions`
reads set-operation questions and their answers; `statement_types`, `sentence_split` and `answer_lists`
are their records and text helpers. Sentences no template reads go on to the free reader
(`agents.reading.claims.free`).
"""

from agents.reading.templates.questions import QueryReader
from agents.reading.templates.set_questions import read_set_answer
from agents.reading.templates.statement_types import ComparisonStatement, Statement

__all__ = [
    "ComparisonStatement",
    "QueryReader",
    "Statement",
    "read_set_answer",
]
