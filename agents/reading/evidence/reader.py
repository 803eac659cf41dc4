"""Read a claim against supplied evidence: sentences, alignment (bm25s + embeddings), then `support.decide`.

The evidence items (`EvidenceItem`, already normalised from text, `[entity, sentence]` pairs and
verbalised triples) are split into sentences by spaCy's parser and cited as `S2.3` (item `S2`,
third sentence; `S2` when the item is one sentence). A claim's sentences are ranked by BM25 (bm25s)
over lemmas plus the cosine of sentence embeddings (all-MiniLM-L6-v2), each scaled to [0, 1] and
averaged; the best `support.ALIGNED` are searched for conflicting values and every sentence for the
claim's units.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.reading.evidence.answer_kind import asked_kind, gives
from agents.reading.evidence.compare import compared, comparison
from agents.reading.evidence.sentences import Sentence, bound, resolved_context
from agents.reading.evidence.support import (
    EvidenceDecision,
    EvidenceReading,
    SupportRule,
    decide,
    yes_no_reading,
    yes_or_no,
)
from agents.reading.evidence.units import Unit, UnitKind, content_units, query_keys
from agents.reading.mentions import fold
from agents.reading.questions import answered, asks_wh, frame_tokens, is_short_answer, question_text
from drowzee_core.records.verdict import CitedSentence, EvidenceFinding, EvidenceItem

log = logging.getLogger(__name__)

MAX_SENTENCES = 400
"""Evidence sentences read per pair (the first ones, in the order supplied)."""
MAX_SENTENCE_CHARS = 1_000

Embed = Callable[[Sequence[str]], NDArray[np.float32]]


class EvidenceReader:
    """Claims read against a pair's evidence sentences; one per service (the parser and models are shared)."""

    def __init__(
        self,
        parse: Callable[[str], Any],
        pipe: Callable[[list[str]], Any],
        embed: Embed | None,
        related: Callable[[str], frozenset[str]],
        rule: SupportRule | None = None,
        heads: Callable[[str], frozenset[str]] | None = None,
        person_noun: Callable[[str], bool] | None = None,
    ) -> None:
        """A reader on a parser, an embedding model and two word relations.

        `related`: a word's synonyms and derived forms (for support); `heads`: the predicates a conflict
        takes as the same (its own sense only; default `related`); `person_noun`: whether a noun names a
        person ("which sculptor" asks for a name: `answer_kind`).
        """
        self.parse = parse
        self.pipe = pipe
        self.embed = embed
        self.related = related
        self.heads = heads or related
        self.person_noun = person_noun
        self.rule = rule or SupportRule()
        self._indexed: tuple[tuple[str, ...], Any, NDArray[np.float32] | None] | None = None

    def sentences(self, items: Sequence[EvidenceItem]) -> list[Sentence]:
        """The items' sentences, parsed and indexed, in the order supplied (at most `MAX_SENTENCES`)."""
        texts = [e.text for e in items]
        out: list[Sentence] = []
        for item, doc in zip(items, self.pipe(texts), strict=True):
            sents = [s for s in doc.sents if s.text.strip()]
            topic = item.ref if item.ref and " | " not in item.ref else None  # an `[entity, sentence]` item's entity
            previous: Sentence | None = None
            for k, sent in enumerate(sents, 1):
                sid = item.id if len(sents) == 1 else f"{item.id}.{k}"
                part = sent.as_doc() if len(sent.text) <= MAX_SENTENCE_CHARS else sent[:200].as_doc()
                previous = Sentence.of(sid, part, resolved_context(part, previous, topic), len(out))
                out.append(previous)
                if len(out) >= MAX_SENTENCES:
                    log.info("evidence cut at %d sentences", MAX_SENTENCES)
                    return out
        return out

    def _index(self, sentences: Sequence[Sentence]) -> tuple[Any, NDArray[np.float32] | None]:
        """The sentences' BM25 index and embeddings, built once per evidence (a response's claims share them)."""
        import bm25s

        key = tuple(s.id + s.text for s in sentences)
        held = self._indexed  # one read: another thread may replace it (the tuple is swapped whole)
        if held is not None and held[0] == key:
            return held[1], held[2]
        corpus = [[t.lemma_.lower() for t in s.doc if t.is_alpha or t.like_num] or ["_"] for s in sentences]
        retriever = bm25s.BM25()
        retriever.index(corpus, show_progress=False)
        vecs = self.embed([s.text for s in sentences]) if self.embed is not None else None
        self._indexed = (key, retriever, vecs)
        return retriever, vecs

    def align(self, claim: Any, sentences: Sequence[Sentence]) -> list[float]:
        """Each sentence's alignment with a parsed claim: mean of scaled BM25 and embedding cosine."""
        if not sentences:
            return []
        retriever, vecs = self._index(sentences)
        query = [t.lemma_.lower() for t in claim if t.is_alpha or t.like_num]
        lexical = np.asarray(retriever.get_scores(query), dtype=np.float64) if query else np.zeros(len(sentences))
        lexical = lexical / lexical.max() if lexical.max() > 0 else lexical
        if self.embed is None or vecs is None:
            return [float(x) for x in lexical]
        cos = np.clip(vecs @ self.embed([claim.text])[0], 0.0, 1.0)
        return [float(x) for x in (lexical + cos) / 2]

    def _ranked(self, claim: Any, sentences: Sequence[Sentence]) -> list[Sentence]:
        scores = self.align(claim, sentences)
        return [sentences[i] for i in sorted(range(len(sentences)), key=lambda i: -scores[i])]

    def aligned(self, query: str, claim: str, sentences: Sequence[Sentence]) -> list[Sentence]:
        """The sentences best-aligned with `claim` first (with the query's statement for a bare Yes / No)."""
        text = query if yes_or_no(claim) is not None and query.strip() else claim
        if text is claim and query.strip() and is_short_answer(self.parse(claim)):
            text = answered(self.parse(query), claim) or claim
        return self._ranked(self.parse(text), sentences)

    def read(self, query: str, claim: str, sentences: Sequence[Sentence]) -> EvidenceReading:
        """One claim against the sentences: supported, refuted or not enough info, with the sentences cited.

        A bare Yes / No answer is read as the statement its question asks, with the answer's polarity
        (`yes_no_reading`); an answer to "which came first, A or B?" from the years the evidence
        gives each (`compare`); another short answer as the statement it makes with its question
        (`answers.answered`: "Which river ...?" + "The Rhine" -> "The Rhine flows ..."). A sentence
        whose subject refers back to nothing before it ("He was ...") speaks of what the claim (or
        the asked statement) is about (`sentences.bound`).
        """
        query_doc = self.parse(query) if query.strip() else None
        yes = yes_or_no(claim)
        if yes is not None and query_doc is not None:
            frame = frame_tokens(query_doc)  # "Is it true that": the question's frame, not its statement
            asked = [u for u in content_units(query_doc) if u.start not in frame]
            ranked = self._ranked(query_doc, bound(sentences, Sentence.of("asked", query_doc)))
            reading = decide(query_doc, asked, ranked, [], self.related, self.rule, heads=self.heads)
            return yes_no_reading(reading, yes)
        ordered = self._compared(query_doc, claim, sentences) if query_doc is not None else None
        if ordered is not None:
            return ordered
        doc = self.parse(claim)
        judged = query_doc is not None and question_text(query) is not None and not asks_wh(query_doc)
        given = query_keys(query_doc) if query_doc is not None and not judged else set()  # a yes / no: none given
        context = [u for u in content_units(query_doc) if u.kind != UnitKind.WORD] if query_doc is not None else []
        if query_doc is not None and is_short_answer(doc) and (statement := answered(query_doc, claim)) is not None:
            return self._answer(doc, self.parse(statement), claim, given, sentences)
        frame = frame_tokens(doc)  # "It is not the case that ...": the frame, not the claim's content
        units = [u for u in content_units(doc, given) if u.start not in frame]
        asks = query_doc is not None and asks_wh(query_doc)  # the claim's new names may be the answer
        ranked = self._ranked(doc, bound(sentences, Sentence.of("claim", doc), given if asks else None))
        return decide(doc, units, ranked, context, self.related, self.rule, heads=self.heads)

    def unanswered(self, query: str, response: str) -> str | None:
        """Why a response does not answer its query's question (`answer_kind`), or None.

        None too when the query asks for no checkable kind of value, or the response is a bare Yes / No.
        """
        if not query.strip() or yes_or_no(response) is not None:
            return None
        query_doc = self.parse(query)
        asked = asked_kind(query_doc, self.person_noun)
        if asked is None:
            return None
        kind, word = asked
        doc = self.parse(response)
        if gives(kind, doc, query_doc):
            return None
        return f"the question asks for {kind.value} ({word}), and the response gives none"

    @staticmethod
    def _compared(query_doc: Any, claim: str, sentences: Sequence[Sentence]) -> EvidenceReading | None:
        """An answer to "which came first, A or B?" read from the years of the choices (`compare`), or None."""
        asked = comparison(query_doc)
        return compared(asked, claim, sentences) if asked is not None else None

    def _answer(
        self, answer: Any, statement: Any, text: str, given: set[str], sentences: Sequence[Sentence]
    ) -> EvidenceReading:
        """A short answer read in the statement it makes with its question (`answers.answered`).

        The answer's units are its claim; the rest, the question's, is given and anchors them (a choice list's
        other names are no anchors). Its parse decides conflicts; support needs no frame (it parses roughly).
        """
        bare = text.strip().rstrip(".!")
        at = statement.text.lower().find(bare.lower())
        span = range(at, at + len(bare)) if at >= 0 else range(0, len(statement.text))

        def inside(u: Unit) -> bool:
            return any(statement[i].idx in span for i in range(u.start, u.end))

        units = [replace(u, given=not inside(u)) for u in content_units(statement, given - query_keys(answer))]
        if at >= 0 and not any(inside(u) for u in units):  # an answer of stop words or a verb ("Make"): a name
            words = [t.i for t in statement if t.idx in span and not t.is_punct]
            if words:
                i, j = words[0], words[-1] + 1
                units.append(Unit(UnitKind.NAME, bare, fold(bare), i, j))
        ranked = self._ranked(statement, bound(sentences, Sentence.of("claim", statement), given))
        reading = decide(statement, units, ranked, [], self.related, self.rule, framed=False, heads=self.heads)
        return replace(reading, read_as=statement.text)


def finding_of(reading: EvidenceReading, sentences: Sequence[Sentence], read_by: str = "embedded") -> EvidenceFinding:
    """The verdict's record of a reading: its decision, reason, the cited sentences' texts and what is missing.

    `read_by` names the reader: `embedded`, or the role and model of an LLM reading (`judge: gpt-4o-mini`).
    """
    texts = {s.id: s.text for s in sentences}
    cited = [CitedSentence(id=i, text=texts[i]) for i in reading.cited if i in texts]
    return EvidenceFinding(
        decision=reading.decision.value,
        reason=reading.reason,
        sentences=cited,
        missing=list(reading.missing),
        read_as=reading.read_as or None,
        p_supported=reading.scores.get("p_supported"),
        read_by=read_by,
        absent=list(reading.absent),
    )


def value_stated(reading: EvidenceReading, value: str, sentences: Sequence[Sentence]) -> EvidenceReading:
    """A support that states a claim's common-noun value ("poem"), else not enough info naming the value.

    The reader requires every name and number of a claim to be stated; a value said in lowercase words
    ("The form of X is poem.") is a content word to it, which the claim's other words can outvote
    ("form", "work" beside "novel"). A value is what a structured claim asserts: a support states it.
    """
    if reading.decision != EvidenceDecision.SUPPORTED or not fold(value):
        return reading
    texts = {s.id: s.folded for s in sentences}
    if any(f" {fold(value)} " in texts.get(i, "") for i in reading.cited):
        return reading
    absent = () if any(f" {fold(value)} " in t for t in texts.values()) else (value,)
    why = f"the evidence does not mention {value}" if absent else f"the cited sentences do not state {value}"
    return replace(
        reading, decision=EvidenceDecision.NOT_ENOUGH_INFO, missing=(*reading.missing, value), absent=absent, reason=why
    )


def item_id(sentence_id: str) -> str:
    """The evidence item a sentence id belongs to ("S2.3" -> "S2")."""
    return sentence_id.split(".", 1)[0]


__all__ = [
    "MAX_SENTENCES",
    "EvidenceReader",
    "finding_of",
    "item_id",
    "value_stated",
]
