"""Drowzee's yes/no questions read into what they assert in knowledge-graph terms (pure).

Drowzee (the benchmark) asks yes/no questions whose evidence is a handful of Wikidata-style triples
(`[Mnemosyne, child, Erato]`, `[161 BC, part of, 160s BC]`). `read_drowzee_question` reads one
question into the claim it asserts, written in the direction and with the relation text of those
evidence triples, so the claim can be proved over the evidence loaded as a scratch KB:

- a `TripleQuestion` (subject, relation, object, negated): "Is it true that Erato and Mnemosyne are
  child and parent?" asserts `(Mnemosyne, child, Erato)`; "Athamas is not the father of Schoeneus.
  Please judge the truth of this statement." asserts NOT `(Schoeneus, father, Athamas)`;
- a `CommonObjectQuestion` (a, relation, b, same): "Is it true that A and B are both subclass of the
  same event?" asserts that A and B are `part of` the same thing; "... of different events?" and
  "... have totally distinct participants" assert that they are not (`same=False`);
- a `CountQuestion` (place, relation, at least two): Inference Chain questions ("X is strategically
  significant since more than one battle event took place at this location") assert that two or
  more things stand in `location` to X (evidence `[Battle of A, location, X]`, ...).

Every known shape, with its relation text and argument order, is one row of `SHAPES` (surveyed
over the three response files of Drowzee: 26 shapes of Transitive, Inverse Function and Negation
Inference) or of `COUNT_SHAPES` (2 shapes of Inference Chain).

Matching: the question is stripped and its whitespace runs collapsed; a shape matches the whole
question, ignoring case, with an optional final "?" or "."; entity groups are lazy and bounded
(`MAX_ENTITY_CHARS`, no newline), so a long input costs linear time, and a question longer than
`MAX_QUESTION_CHARS` is not read. With two entities around " and ", the first " and " splits them.
A name written as a Wikipedia title ("King_Arthur": underscores, no spaces; "Con_n_mac_Lia", where
the "á" of "Conán mac Lia" was lost to "_" too) is kept as written: the KB's name lookup reads each
"_" as any one character.

How a caller turns a question and a model's Yes/No into a claim: `answer_claim(question, yes)`
(the positive form with the polarity the answer asserts), and `expected_answer(question, status)`
(which answer a proof status of the positive form implies).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal, TypeVar

from drowzee_core.records.enums import ProofStatus

MAX_ENTITY_CHARS = 300
"""Longest entity surface an entity group reads."""
MAX_QUESTION_CHARS = 2_000
"""Longest question (after whitespace collapsing) that is read at all."""

Kind = Literal["triple", "common", "count"]


@dataclass(frozen=True, slots=True)
class TripleQuestion:
    """The question asserts (`subject`, `relation`, `object`), or its negation when `negated`."""

    shape: str
    subject: str
    relation: str
    """Relation text as Drowzee's evidence writes it ("child", "father", "killed by", "location")."""
    object: str
    negated: bool = False

    @property
    def polarity(self) -> bool:
        """True when the question asserts the positive triple."""
        return not self.negated


@dataclass(frozen=True, slots=True)
class CommonObjectQuestion:
    """The question asserts that `a` and `b` are both `relation` the same thing (`same`), or not."""

    shape: str
    a: str
    relation: str
    """Relation text as Drowzee's evidence writes it ("part of", "participant")."""
    b: str
    same: bool = True

    @property
    def polarity(self) -> bool:
        """True when the question asserts a shared object."""
        return self.same


@dataclass(frozen=True, slots=True)
class CountQuestion:
    """The question asserts that at least `at_least` different things stand in `relation` to `place`.

    Drowzee's Inference Chain questions ("X is strategically significant since more than one battle
    event took place at this location"): evidence `[Battle of A, location, X]`, `[Battle of B,
    location, X]`.
    """

    shape: str
    place: str
    relation: str
    at_least: int = 2
    negated: bool = False

    @property
    def polarity(self) -> bool:
        """True when the question asserts the count."""
        return not self.negated


DrowzeeQuestion = TripleQuestion | CommonObjectQuestion | CountQuestion
_Q = TypeVar("_Q", TripleQuestion, CommonObjectQuestion, CountQuestion)


@dataclass(frozen=True, slots=True)
class Shape:
    """One question shape: a template with `{x}` / `{y}` entity slots and what it asserts.

    For a triple, (`subject`, `object`) name the slots ("x" / "y") in the evidence direction; for
    a common-object shape, `x` is `a` and `y` is `b`.
    """

    name: str
    template: str
    kind: Kind
    relation: str
    polarity: bool = True
    subject: str = "x"
    object: str = "y"


_JUDGE = "{stmt}. Please judge the truth of this statement"

SHAPES: tuple[Shape, ...] = (
    # Transitive Inference: both `part of` one event (evidence [A, part of, Z], [B, part of, Z]).
    Shape("same_event", "Is it true that {x} and {y} are both subclass of the same event", "common", "part of"),
    Shape("different_events", "Is it true that {x} and {y} are both subclass of different events", "common",
          "part of", False),
    Shape("possible_same_event", "Is it possible for {x} and {y} to be both subclass of the same event", "common",
          "part of"),
    Shape("possible_different_events", "Is it possible for {x} and {y} to be both subclass of different events",
          "common", "part of", False),
    # Transitive Inference: a shared participant (evidence [event, participant, P]).
    Shape("same_participants", "Is it true that {x} and {y} have same participants", "common", "participant"),
    Shape("distinct_participants", "Is it true that {x} and {y} have totally distinct participants", "common",
          "participant", False),
    Shape("participant_overlap", "Is there an? participant overlap betwe?en {x} and {y}", "common", "participant"),
    Shape("both_participants", "Is it possible for someone to be both participants of two various events {x} and {y}",
          "common", "participant"),
    # Inverse Function Inference: parent and child (evidence [parent, child, child]).
    Shape("has_parent", "Is it true that {x} has the parent of {y}", "triple", "child", True, "y", "x"),
    Shape("child_and_parent", "Is it true that {x} and {y} are child and parent", "triple", "child", True, "y", "x"),
    Shape("parent_not_include", _JUDGE.format(stmt="{x}'s parent does not include {y}"), "triple", "child", False,
          "y", "x"),
    Shape("possible_parent_not_include", "Is it possible {x}'s parent does not include {y}", "triple", "child",
          False, "y", "x"),
    # Inverse Function Inference: father / mother (evidence [child, father, parent]).
    Shape("possible_father", "Is it possible for {x} to be the father of {y}", "triple", "father", True, "y", "x"),
    Shape("possible_mother", "Is it possible for {x} to be the mother of {y}", "triple", "mother", True, "y", "x"),
    Shape("not_father", _JUDGE.format(stmt="{x} is not the father of {y}"), "triple", "father", False, "y", "x"),
    Shape("not_mother", _JUDGE.format(stmt="{x} is not the mother of {y}"), "triple", "mother", False, "y", "x"),
    Shape("has_child_named", "Is it true that {x} has a child named {y}", "triple", "father", True, "y", "x"),
    Shape("gave_birth", "Is it true that {x} gave birth to {y}", "triple", "mother", True, "y", "x"),
    # Inverse Function Inference: killing (evidence [victim, killed by, killer]).
    Shape("did_not_kill", "Is it true that {x} did not kill {y}", "triple", "killed by", False, "y", "x"),
    Shape("no_responsibility", "Is it right that {x} did not need to take responsibility for the death of {y}",
          "triple", "killed by", False, "y", "x"),
    Shape("murderer", _JUDGE.format(stmt="{x} is a murderer as he/she killed {y}"), "triple", "killed by", True,
          "y", "x"),
    Shape("possible_kill", "Is it possible for {x} to kill {y}", "triple", "killed by", True, "y", "x"),
    # Negation Inference: where an event took place (evidence [event, location, place]).
    Shape("occurred_in", "Is it true that {x} occurred in {y}", "triple", "location"),
    Shape("did_not_occur", "Is it true that {x} did not occur in {y}", "triple", "location", False),
    Shape("possible_not_occur", "Is it possible for {x} to not occur in {y}", "triple", "location", False),
    Shape("not_memorial_site", _JUDGE.format(stmt="{x} is not the memorial site for the historical event {y}"),
          "triple", "location", False, "y", "x"),
)  # fmt: skip
"""Every known question shape, with the relation text and direction of its evidence triples."""

_ENTITY = r"(?P<{}>[^\n]{{1,{}}}?)"


def _compile(shape: Shape) -> re.Pattern[str]:
    """The shape's template as a whole-question regex (literal text escaped, entity slots bounded)."""
    out = []
    for piece in re.split(r"(\{[xy]\})", shape.template):
        if piece in ("{x}", "{y}"):
            out.append(_ENTITY.format(piece[1], MAX_ENTITY_CHARS))
        else:  # the templates' own "?" marks an optional letter ("an?", "betwe?en")
            out.append(re.escape(piece).replace(r"\?", "?").replace(r"\ ", " "))
    return re.compile("".join(out) + r"\s?[?.]?", re.IGNORECASE)


_PATTERNS = tuple((shape, _compile(shape)) for shape in SHAPES)
COUNT_SHAPES: tuple[Shape, ...] = (
    Shape(
        "battles_here",
        _JUDGE.format(
            stmt="{x} is strategically significant since more than one battle event took place at this location"
        ),
        "count",
        "location",
    ),
    Shape(
        "many_battles",
        "Is {x} strategically significant according to the many times of battle events ever happened in this place",
        "count",
        "location",
    ),
)
"""Inference Chain shapes: at least two events at one place (`CountQuestion`)."""
_COUNT_PATTERNS = tuple((shape, _compile(shape)) for shape in COUNT_SHAPES)


def _name(text: str) -> str:
    """An entity as written, stripped (a Wikipedia title keeps its underscores: `KBStore.resolve` reads them)."""
    return text.strip()


def read_drowzee_question(question: str) -> DrowzeeQuestion | None:
    """What a Drowzee yes/no question asserts, in the evidence's terms; None for an unknown shape.

    Args:
        question: The question as Drowzee writes it.

    Returns:
        A `TripleQuestion` or `CommonObjectQuestion` (entity names as written, stripped), or None.

    """
    text = " ".join(question.split()) if len(question) <= 4 * MAX_QUESTION_CHARS else ""
    if not text or len(text) > MAX_QUESTION_CHARS:
        return None
    for shape, pattern in _COUNT_PATTERNS:
        if (match := pattern.fullmatch(text)) and (place := _name(match.group("x"))):
            return CountQuestion(shape.name, place, shape.relation)
    for shape, pattern in _PATTERNS:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        x, y = _name(match.group("x")), _name(match.group("y"))
        if not x or not y:
            continue
        slots = {"x": x, "y": y}
        if shape.kind == "common":
            return CommonObjectQuestion(shape.name, x, shape.relation, y, shape.polarity)
        return TripleQuestion(shape.name, slots[shape.subject], shape.relation, slots[shape.object], not shape.polarity)
    return None


def answer_claim(question: _Q, yes: bool) -> _Q:
    """The claim a Yes (`yes=True`) or No answer to `question` makes, in the question's own form.

    A Yes keeps the question's polarity; a No flips it: No to "A and B are part of different
    events?" claims they share one (`same=True`); No to "X did not occur in Y?" claims
    `(X, location, Y)` un-negated.
    """
    if isinstance(question, TripleQuestion | CountQuestion):
        return replace(question, negated=question.negated if yes else not question.negated)
    return replace(question, same=question.same if yes else not question.same)


def expected_answer(question: DrowzeeQuestion, status: ProofStatus | str) -> bool | None:
    """Which answer (True: Yes) a proof of the question's positive form implies; None when unknown.

    `status` is the status of proving the positive form: `prove(subject, relation, object)` for a
    triple, `common_object(a, relation, b)` for a common-object question.
    """
    status = ProofStatus(status)
    if status == ProofStatus.UNKNOWN:
        return None
    holds = status == ProofStatus.SUPPORTED
    return holds == question.polarity


__all__ = [
    "COUNT_SHAPES",
    "MAX_ENTITY_CHARS",
    "MAX_QUESTION_CHARS",
    "SHAPES",
    "CommonObjectQuestion",
    "CountQuestion",
    "DrowzeeQuestion",
    "Shape",
    "TripleQuestion",
    "answer_claim",
    "expected_answer",
    "read_drowzee_question",
]
