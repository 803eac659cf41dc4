"""Stage 3 of the reading floor, candidates: claims between mentions, a relation chosen by its declared wording.

The catalog's templates become cue patterns (`Lexicon`); `read` turns one parsed sentence into `Reading`s
(the one reading type); a pair's own relation labels are linked through their words and WordNet
(`LabelLinker`); the learned relation model (`choose`) reads where no pattern does; `scope` says what a
sentence says around the claim (negation, time, supposition); `verbalize` turns a reading into a claim record.
"""

from agents.reading.candidates.comparatives import Comparative, read_comparative
from agents.reading.candidates.labels import (
    LIGHT,
    SENSES,
    WORDNET_SCORE,
    LabelLink,
    LabelLinker,
    RelationLabel,
    catalog_labels,
    entity_labels,
    label_lemmas,
    reads_verbally,
    value_labels,
)
from agents.reading.candidates.learned import choose, shipped_model
from agents.reading.candidates.lexicon import Lexicon, Pattern
from agents.reading.candidates.lexicon_store import saved_lexicon
from agents.reading.candidates.measures import bare_nouns, counted, measured, unit_table
from agents.reading.candidates.own_labels import relabel
from agents.reading.candidates.reader import Reading, nlp, read, with_pronoun
from agents.reading.candidates.scope import (
    DENYING,
    asserts_nothing,
    embedded,
    leftover,
    negated_doc,
    supposed_tokens,
    time_of,
    time_qualifier,
    time_word,
)
from agents.reading.candidates.wording import decade_valued, reading_claim, verbalize
from agents.reading.candidates.wordnet_related import WordNetRelated, default_linker

__all__ = [
    "DENYING",
    "LIGHT",
    "SENSES",
    "WORDNET_SCORE",
    "Comparative",
    "LabelLink",
    "LabelLinker",
    "Lexicon",
    "Pattern",
    "Reading",
    "RelationLabel",
    "WordNetRelated",
    "asserts_nothing",
    "bare_nouns",
    "catalog_labels",
    "choose",
    "counted",
    "decade_valued",
    "default_linker",
    "embedded",
    "entity_labels",
    "label_lemmas",
    "leftover",
    "measured",
    "negated_doc",
    "nlp",
    "read",
    "read_comparative",
    "reading_claim",
    "reads_verbally",
    "relabel",
    "saved_lexicon",
    "shipped_model",
    "supposed_tokens",
    "time_of",
    "time_qualifier",
    "time_word",
    "unit_table",
    "value_labels",
    "verbalize",
    "with_pronoun",
]
