"""Stage 4 of the reading floor, questions: what a query asks and how an answer answers it.

Where a query asks (`asking`), what it puts up for judgement (`asked`), its frame (`frames`), the names it
is about (`question_names`), a yes / no question read as logic over linked names (`read_question`), and a
short answer joined with its question (`answers`).
"""

from agents.reading.questions.answers import (
    MAX_SHORT_ANSWER_WORDS,
    answered,
    asks_wh,
    choices_start,
    hedge_tokens,
    is_short_answer,
    phrase_stop,
    question,
)
from agents.reading.questions.asking import (
    MAX_QUERY_CHARS,
    TOPIC_DEPS,
    asks_subject,
    last_question,
    question_text,
    says_it,
    wh_question,
    without_echoes,
)
from agents.reading.questions.frames import Span, frame_tokens, predicate_words
from agents.reading.questions.named import Typed, question_names
from agents.reading.questions.yes_no import read_question

__all__ = [
    "MAX_QUERY_CHARS",
    "MAX_SHORT_ANSWER_WORDS",
    "TOPIC_DEPS",
    "Span",
    "Typed",
    "answered",
    "asks_subject",
    "asks_wh",
    "choices_start",
    "frame_tokens",
    "hedge_tokens",
    "is_short_answer",
    "last_question",
    "phrase_stop",
    "predicate_words",
    "question",
    "question_names",
    "question_text",
    "read_question",
    "says_it",
    "wh_question",
    "without_echoes",
]
