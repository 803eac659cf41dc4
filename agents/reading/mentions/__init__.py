"""Stage 2 of the reading floor, mentions: what a sentence names and which values it gives.

The names a KB or a pair's supplied triples know (labels, aliases, initials, surnames, any case, folded
diacritics), typed values (years, also in words; numbers with their tolerance), and what stands for a name
said before: a pronoun, "the country", a surname, a list of names in one argument place.
The interface: `mentions` / `Mention`, `knower` / `Known` and the name helpers, the value helpers
(`fold`, `number_phrase`, ...), descriptions, anaphora and coordination.
"""

from agents.reading.mentions.anaphora import definite_as, it_as, subject_name, surname_as, then_as, there_as
from agents.reading.mentions.coordination import all_or_nothing, distributed, listed, pair_of, they_as
from agents.reading.mentions.descriptions import Hop, resolve_descriptions
from agents.reading.mentions.finder import Mention, head_word, in_a_name, mentions
from agents.reading.mentions.known import knower, names_known, narrowed, typed_readings, without_article
from agents.reading.mentions.values import (
    APPROX_WORDS,
    NUMBER_WORDS,
    SCALES,
    as_decade,
    as_number,
    as_year,
    fold,
    number_phrase,
    tolerance,
    undot,
    words_to_number,
    year_tolerance,
)

__all__ = [
    "APPROX_WORDS",
    "NUMBER_WORDS",
    "SCALES",
    "Hop",
    "Mention",
    "all_or_nothing",
    "as_decade",
    "as_number",
    "as_year",
    "definite_as",
    "distributed",
    "fold",
    "head_word",
    "in_a_name",
    "it_as",
    "knower",
    "listed",
    "mentions",
    "names_known",
    "narrowed",
    "number_phrase",
    "pair_of",
    "resolve_descriptions",
    "subject_name",
    "surname_as",
    "then_as",
    "there_as",
    "they_as",
    "tolerance",
    "typed_readings",
    "undot",
    "without_article",
    "words_to_number",
    "year_tolerance",
]
