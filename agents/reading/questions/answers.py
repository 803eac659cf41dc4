"""A short answer joined with its question into the statement it makes (pure, over spaCy parses).

"Which river flows through Cologne?" + "The Rhine" -> "The Rhine flows through Cologne."; "When was
Marie Curie born?" + "1867" -> "Marie Curie was born in 1867."; "What did Fleming discover?" +
"Penicillin" -> "Fleming did discover penicillin." (the statement is read for its names, numbers, words
and frames, and shown in explanations of a refuted answer). The question's wh-phrase (with its
preposition: "in which decade") gives way to the answer: in place when it is the subject or a
copula's complement, else at the end, with the inverted auxiliary put back after the subject ("was X
born", "did X discover"). A choice list after the question ("..., A or B?") is dropped: the answer names
one of them. Anything else (no question word, an answer with a verb of its own) is left unjoined.
"""

from __future__ import annotations

from typing import Any

from agents.reading.clauses import STANCE
from agents.reading.mentions import NUMBER_WORDS

WH_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})
SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj", "attr"})
MAX_ANSWER_TOKENS = 12
"""Longest answer joined with its question: a longer one is a statement of its own."""
PLACE_OR_TIME = frozenset({"when", "where"})
PREPOSITIONS = frozenset({"in", "on", "at", "from", "by", "during", "since", "until", "to", "of", "for", "with"})
INLINE_WORDS = frozenset({"a", "an", "some", "about", "around", "nearly", "over", "under", "approximately"})
"""Leading words of an answer written in lower case inside a sentence (with prepositions and number words)."""


def is_short_answer(doc: Any) -> bool:
    """Whether a response is a bare phrase (a name, a value, a noun phrase) rather than a statement of its own.

    A title in title case is a name even when it parses as a clause ("When Rivers Ran Dry").
    """
    words = [t for t in doc if not t.is_punct]
    if not words or len(words) > MAX_ANSWER_TOKENS:
        return False
    if _title(words) and not doc.text.rstrip().endswith("?"):
        return True
    return not any(t.pos_ in ("VERB", "AUX") and any(c.dep_ in SUBJECTS for c in t.children) for t in words)


def _title(words: list[Any]) -> bool:
    """Whether words are a title: two or more, each word starting with a capital (digits aside)."""
    alpha = [t for t in words if t.is_alpha or "'" in t.text]
    lead = [t for t in alpha if t.text[:1].isalpha()]
    return len(lead) >= 2 and all(t.text[:1].isupper() for t in lead)


def question(doc: Any) -> Any | None:
    """The last sentence of the query that is a question."""
    found = [s for s in doc.sents if s.text.rstrip().endswith("?")]
    return found[-1] if found else None


def choices_start(sent: Any) -> int | None:
    """Where a trailing choice list starts (the comma of "..., A or B?"), or None."""
    commas: list[int] = [t.i for t in sent if t.text in (",", ":")]
    for c in commas:
        tail = [t for t in sent if t.i > c and not t.is_punct]
        if tail and any(t.lower_ == "or" for t in tail) and not any(t.pos_ in ("VERB", "AUX") for t in tail):
            return c
    return None


AUXILIARY_WORDS = frozenset(
    {"is", "are", "was", "were", "am", "be", "do", "does", "did", "has", "have", "had"}
    | {"can", "could", "will", "would", "shall", "should", "may", "might", "must"}
)
RELATIVE = frozenset({"relcl"})


def _wh(sent: Any, end: int) -> Any | None:
    """The question word: the first wh-word before `end` outside a relative clause ("whose population was ...")."""
    for t in sent:
        if t.i >= end:
            break
        if t.tag_ in WH_TAGS and t.lower_ != "that" and not _relative(t):
            return t
    return None


def _relative(wh: Any) -> bool:
    """Whether a wh-word opens a relative clause: the first verb above it heads one, and the word leads it.

    "the city whose mayor ...", "the house in which ...": relative; "a ship launched from which port",
    "a band formed in which town": a question word in place (a participle has no relative word).
    """
    verb = next((a for a in wh.ancestors if a.pos_ in ("VERB", "AUX")), None)
    if verb is None or verb.dep_ not in RELATIVE:
        return False
    lead: int = verb.left_edge.i
    at: int = wh.i
    return at == lead or (at == lead + 1 and wh.doc[lead].pos_ == "ADP")


def phrase_stop(doc: Any, wh: Any, end: int) -> int:
    """Where the wh-phrase ends: "how many", "which river", "what Dutch painter", "whose son", or the word alone.

    Read from the words, not the parse (parsers often misattach question words): a determiner-like
    wh-word takes the run of adjectives, nouns, numbers and possessives after it.
    """
    at: int = wh.i
    nxt = doc[at + 1] if at + 1 < end else None
    if nxt is None:
        return at + 1
    if wh.lower_ == "how":
        return at + 2 if nxt.pos_ in ("ADJ", "ADV") else at + 1
    if wh.tag_ in ("WDT", "WP$") or nxt.pos_ in ("NOUN", "PROPN", "ADJ"):
        j = at + 1
        while j < end and (
            doc[j].pos_ in ("ADJ", "NOUN", "PROPN", "NUM")
            or (doc[j].tag_ == "POS" and wh.tag_ == "WP$")
            or doc[j].ent_iob_ == "I"
        ):
            j += 1
        return j  # "which club's stadium": the phrase is "which club"; the possessive stays with the answer
    return at + 1


def _subject(doc: Any, first: int, end: int, skip: range) -> tuple[int, int] | None:
    """The token range of the first subject from `first` on, outside the wh-phrase."""
    subj = next((t for t in doc[first:end] if t.dep_ in ("nsubj", "nsubjpass") and t.i not in skip), None)
    if subj is None:
        return None
    span = [x.i for x in subj.subtree if x.i < end]
    return min(span), max(span) + 1


def _declarative(doc: Any, first: int, end: int, phrase: range, aux: Any) -> list[str]:
    """The words from `first` to `end` without `phrase`, the inverted `aux` put back after the subject.

    "was X born" -> "X was born"; "did X discover" -> "X did discover" (the statement is also shown,
    in explanations, so "do" stays to carry the tense and person of the bare verb after it).
    """
    subject = _subject(doc, aux.i + 1, end, phrase)
    words: list[str] = []
    for t in doc[first:end]:
        if t.i in phrase or t.i == aux.i:
            continue
        words.append(t.text)
        if subject is not None and t.i == subject[1] - 1:
            words.append(aux.text)
    if subject is None and aux.lemma_ != "do":
        words.append(aux.text)  # no subject parsed: the auxiliary goes last, before the answer
    return words


def asks_wh(query_doc: Any) -> bool:
    """Whether the query's last question asks with a question word ("Who ...?", "In what decade ...?")."""
    sent = question(query_doc)
    return sent is not None and _wh(sent, sent.end) is not None


def answered(query_doc: Any, answer: str) -> str | None:
    """The statement a short `answer` makes about the query's last wh-question, or None (module docstring)."""
    sent = question(query_doc)
    if sent is None:
        return None
    end = choices_start(sent)
    end = end if end is not None else sent.end
    while end > sent.start and sent.doc[end - 1].is_punct:
        end -= 1
    wh = _wh(sent, end)
    if wh is None:
        return None
    doc = sent.doc
    answer = _inline(answer.strip().rstrip(".!"))
    stop = phrase_stop(doc, wh, end)
    if wh.tag_ == "WP$":  # "whose son": the answer's son
        answer = f"{answer}'s {doc[wh.i + 1 : stop].text}".strip()
    prep = doc[wh.i - 1] if wh.i > sent.start and doc[wh.i - 1].pos_ == "ADP" else None
    start = prep.i if prep is not None else wh.i
    if start > sent.start:  # in situ ("is the tenth track on what album"): the answer takes its place
        return _sentence([*(t.text for t in doc[sent.start : wh.i]), answer, *(t.text for t in doc[stop:end])])
    after = doc[stop] if stop < end else None
    counted = wh.lower_ == "how" and doc[wh.i + 1].lower_ in ("many", "much")
    noun_end = stop
    if counted:  # "how many moons does X have": the counted noun goes with the number
        while noun_end < end and doc[noun_end].pos_ in ("ADJ", "NOUN", "PROPN"):
            noun_end += 1
        after = doc[noun_end] if noun_end < end else None
    following = doc[after.i + 1] if after is not None and after.i + 1 < end else None
    inverted = (  # "did X ...", "is the capital ...": a subject follows the auxiliary, not a verb
        after is not None
        and after.lower_ in AUXILIARY_WORDS
        and following is not None
        and (
            following.pos_ in ("DET", "PROPN", "NOUN", "PRON", "ADJ", "NUM")
            or _subject(doc, after.i + 1, end, range(start, noun_end)) is not None
        )
    )
    if not inverted:  # a subject question ("which river flows ...", "who sailed first")
        return _sentence([answer, *(t.text for t in doc[stop:end])])
    assert after is not None
    words = _declarative(doc, sent.start, end, range(start, noun_end), after)
    if counted:
        return _sentence([*words, answer, *(t.text for t in doc[stop:noun_end])])
    if prep is not None:
        filler = f"{prep.lower_} {answer}"
    elif wh.lower_ in PLACE_OR_TIME and answer.split(" ", 1)[0].lower() not in PREPOSITIONS:
        filler = f"in {answer}"
    else:
        filler = answer
    return _sentence([*words, filler])


def _inline(answer: str) -> str:
    """An answer as it reads inside a sentence, so that the parser does not take a capital for a name.

    A leading number word, preposition or approximation goes to lower case ("Three" -> "three", "In
    Lisbon" -> "in Lisbon", "About 40" -> "about 40") unless the rest is a title ("Four Weddings").
    """
    first, _, rest = answer.partition(" ")
    word = first.lower()
    leading = word in INLINE_WORDS or word in PREPOSITIONS or (word in NUMBER_WORDS and word != "and")
    titled = bool(rest) and all(w[:1].isupper() for w in rest.split() if w[:1].isalpha())
    if leading and not (titled and word not in PREPOSITIONS):
        return f"{word} {rest}".strip()
    return answer


def _sentence(words: list[str]) -> str | None:
    text = " ".join(w for w in words if w).strip()
    for p in (" ,", " .", " 's", " n't", " %"):
        text = text.replace(p, p.strip() if p != " ," else ",")
    if not text:
        return None
    return text[:1].upper() + text[1:] + "."


MAX_SHORT_ANSWER_WORDS = 6
"""The words of a short answer (`SentenceReader.answers_of` reads a first sentence of up to three more)."""

COGNITION = frozenset({"believe", "think", "know", "guess", "suppose", "recall", "say"})
FIRST_PERSON = frozenset({"i", "we"})


def hedge_tokens(sentence: Any) -> set[int]:
    """Token indexes of first-person hedges in a sentence ("as far as I know", "I think"), not the claim they hedge."""
    out: set[int] = set()
    for t in sentence:
        stance = t.lemma_ in STANCE and t.dep_ == "acomp"  # "I'm sure <the claim>"
        owner = t.head if stance else t
        if (t.lemma_ in COGNITION or stance) and any(
            c.dep_ == "nsubj" and c.lower_ in FIRST_PERSON for c in owner.children
        ):
            clause = {x.i for x in owner.subtree}
            for c in t.children:  # "I believe <the claim>": the complement is the claim, not the hedge
                if c.dep_ in ("ccomp", "xcomp"):
                    clause -= {x.i for x in c.subtree}
            out |= clause
    return out


__all__ = [
    "COGNITION",
    "FIRST_PERSON",
    "MAX_ANSWER_TOKENS",
    "MAX_SHORT_ANSWER_WORDS",
    "answered",
    "asks_wh",
    "choices_start",
    "hedge_tokens",
    "is_short_answer",
    "phrase_stop",
    "question",
]
