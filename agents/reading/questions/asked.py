"""What a query puts up for judgement (pure over spaCy docs): the asked statement and whether a judgement denies it.

- the query's last question ("Is X Y?", "Did X ...?");
- a question that says nothing itself ("Is this correct?", "Am I wrong?", "Do you agree?") asks about
  the statement before it; a denying one ("Is this false?") asks whether that statement is false;
  judging sentences between them ("I hold the contrary view.", "I doubt it.") deny or keep it in turn;
- a tag asks about the statement it ends ("X is Y, isn't it?", "X is Y, right?"): the tag's own
  negation only turns the tag;
- a judging lead introduces one ("True or false: X is Y.");
- a statement followed by a request ("X is Y. Please check this.").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.reading.candidates import DENYING
from agents.reading.questions.frames import FRAME_ADJ

AUXILIARY = frozenset({"be", "do", "have", "will", "would", "can", "could", "shall", "should", "may", "might", "must"})
JUDGING = frozenset(
    {
        *("think", "agree", "say", "believe", "reckon", "suppose", "guess", "confirm", "mean"),
        *("claim", "statement", "assertion", "sentence", "idea", "so", "or", "yes", "no", "okay", "ok", "valid"),
        *("what", "how", "about", "of", "with", "sure", "really", "indeed", "exactly", "to", "be"),
        *("support", "hold", "view", "opinion", "position", "side", "one", "feel", "take"),
    }
)
"""Words of a judging question or tag beside its auxiliaries and pronouns ("do you agree", "is that so")."""


def is_request(sent: Any) -> bool:
    """Whether a sentence is an imperative request ("Please verify this.", "Judge whether it holds.")."""
    root = sent.root
    if any(t.lower_ == "please" for t in sent[:2]):
        return True
    has_subject = any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in root.children)
    return root.tag_ == "VB" and root.i == sent.start and not has_subject


def content_free(tokens: Sequence[Any]) -> bool:
    """Whether words ask or judge and say nothing themselves ("Is this correct?", "do you agree", "True or false").

    Such words are auxiliaries, pronouns, negations, judging adjectives, verbs of opinion and nouns
    that name a statement; a name, a number or any other content word makes them content.
    """
    words = [t for t in tokens if not (t.is_punct or t.is_space)]
    if not words:
        return False
    for t in words:
        lemma = t.lemma_.lower()
        if (t.pos_ in ("AUX", "PRON", "DET", "PART", "CCONJ", "INTJ") or lemma in AUXILIARY) and t.ent_type_ == "":
            continue
        if lemma in FRAME_ADJ or lemma in DENYING or t.lower_ in JUDGING:
            continue
        return False
    return True


def denies(tokens: Sequence[Any]) -> bool:
    """Whether judging words deny what they judge: a denying adjective or a negation, one of them ("Is it wrong?")."""
    skip = _contracted(tokens)
    neg = any(t.dep_ == "neg" or t.lower_ in ("not", "n't", "never") for t in tokens if t.i != skip)
    return any(t.lemma_.lower() in DENYING for t in tokens) != neg


def _contracted(tokens: Sequence[Any]) -> int:
    """The index of a negation contracted onto a fronted auxiliary ("Isn't this so?"), else -1."""
    if len(tokens) > 1 and tokens[0].pos_ == "AUX" and tokens[1].lower_ == "n't":
        return int(tokens[1].i)
    return -1


def _untagged(sent: Any) -> tuple[str, bool] | None:
    """A question's statement without its tag ("X is Y, isn't it?" -> "X is Y?"), and whether the tag denies it."""
    commas = [t for t in sent if t.text == ","]
    if not commas:
        return None
    tag = sent[commas[-1].i - sent.start + 1 :]
    if not content_free(tag):
        return None
    asked = sent.doc[sent.start : commas[-1].i].text.strip()
    # a tag's negation only turns the tag ("X is Y, isn't it?" asks whether X is Y); a denying word denies
    return (asked + "?", any(t.lemma_.lower() in DENYING for t in tag)) if asked else None


def _introduced(sent: Any) -> str | None:
    """A statement after a judging lead ("True or false: X is Y." -> "X is Y"), else None."""
    colon = next((t for t in sent if t.text == ":"), None)
    if colon is None or not content_free(sent.doc[sent.start : colon.i]):
        return None
    rest = sent.doc[colon.i + 1 : sent.end].text.strip()
    return _bare(rest) if rest else None


def _judged(statement: str, deny: bool) -> str:
    """The asked text for a statement put up for judgement: itself, or a question of its falsity."""
    return f"Is it false that {statement}?" if deny else statement


def _sentences(doc: Any) -> list[Any]:
    """The doc's sentences, a parser's split inside one ("Is X | the author of Y?") joined back at no end mark."""
    out: list[Any] = []
    for sent in (s for s in doc.sents if s.text.strip()):
        if out and out[-1].text.strip()[-1] not in END_MARKS:
            out[-1] = doc[out[-1].start : sent.end]
        else:
            out.append(sent)
    return out


END_MARKS = frozenset(".?!:;\n\"'”)")


def asked_text(doc: Any) -> str | None:
    """The statement or question a query asks about: its last question, or the statement before a request.

    A question that says nothing itself ("Is this correct?", "Am I wrong?", "Do you agree?") asks about
    the statement before it; a tag asks about the statement it ends ("X is Y, isn't it?", "..., right?");
    a judging lead introduces one ("True or false: X is Y."). A judgement that denies ("Is this false?")
    asks whether the statement is false. None when the query is neither a question nor a statement
    put up for judgement.
    """
    sents = _sentences(doc)
    if not sents:
        return None
    last = sents[-1]
    if (lead := _introduced(last)) is not None:
        return lead
    question = last.text.strip().endswith("?") or (last[0].pos_ == "AUX" and last[0].i == last.root.i)
    if question and content_free(last):
        deny = denies([t for t in last if not t.is_punct])
        before = [s for s in sents[:-1] if not is_request(s)]
        while before and content_free(before[-1]) and not before[-1].text.strip().endswith("?"):
            deny ^= denies([t for t in before.pop() if not t.is_punct])  # "I hold the contrary view."
        if not before or before[-1].text.strip().endswith("?"):
            return None
        return _judged(_introduced(before[-1]) or _bare(before[-1].text), deny)
    if question and (tagged := _untagged(last)) is not None:
        said, deny = tagged
        return _judged(said[:-1], True) if deny else said
    if question:
        return str(last.text.strip())  # a question, with or without its "?" ("Is it true that X ...")
    if len(sents) >= 2 and is_request(sents[-1]):
        before = [s for s in sents[:-1] if not is_request(s)]
        return _bare(before[-1].text) if before else None
    return None


def _bare(text: str) -> str:
    """A sentence without its final punctuation (a name may end it: "... of Ramses I.")."""
    return text.strip().rstrip("?.!").strip()


__all__ = ["AUXILIARY", "JUDGING", "asked_text", "content_free", "denies", "is_request"]
