"""Ways to say one fact, from the relation catalog's grammar, and how sentences join (pure).

A fact (s, relation, o) can be said with the relation's own template, its inverse's template with
the roles swapped ("Lyon is located in France" / "France contains Lyon"), a symmetric relation's
swap, an active / passive flip of a one-verb template ("X was proved by Y" / "Y proved X"), and,
where the relation has a `phrase` and the subject has one object, the phrase as a subject, a
possessive or a predicate ("The capital of France is Paris" / "France's capital is Paris" / "Paris
is the capital of France"). Each form is a `Said`: its words and, when it opens with an entity, that
entity and the rest, so that `compose` can continue with a pronoun ("It ...") or fold the next fact
into a relative clause ("..., which is in the time zone CET").
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from drowzee_core.generate.natural.words import capitalize, sentence, year_templates
from drowzee_core.kb.model import RelationSpec, ValueKind
from drowzee_core.kb.template_regex import fill

Link = Literal["pronoun", "append", "embed"]
"""How a fact joins the sentence before it: a pronoun for a repeated subject, or a relative clause on
the entity that ends the sentence before (append) or that both open with (embed)."""

_PASSIVE = re.compile(r"^\{s\} was (\w+ed) by \{o\}\.$")  # a regular verb: its participle is its past
_ACTIVE = re.compile(r"^\{s\} (\w+ed) \{o\}\.$")
_OF = re.compile(r"^the ([a-z][a-z ]*) of \{s\}$")
CLASS_TEMPLATE = re.compile(r"^\{s\} (?:is|was) an? \{o\}\.$")
"""A template that gives its subject a class noun ("{s} was a {o}."): the person anaphor "the {o}"."""


@dataclass(frozen=True, slots=True)
class Said:
    """One way to say a fact (no final period).

    `lead` is the label of the entity the words open with, and `rest` what follows it (after "'s"
    when `possessive`), so that the entity can become a pronoun or carry a relative clause; `lead`
    stays the entity's label when a pronoun stands in for it. Without `lead`, `text` is all there is.
    """

    text: str
    lead: str | None = None
    rest: str = ""
    possessive: bool = False
    tail: str | None = None
    """The label of the entity the words end with (a relative clause may follow it)."""
    merged: bool = False
    """The words already carry a relative clause (one per sentence)."""


@dataclass(frozen=True, slots=True)
class Ref:
    """How to refer back to an entity: an anaphor ("it", "the mathematician"; None: repeat the name)."""

    anaphor: str | None = "it"
    relative: str = "which"
    """The relative pronoun: "which", or "who" for a person."""

    @property
    def possessive(self) -> str | None:
        """The anaphor as a possessive ("its", "the mathematician's")."""
        if self.anaphor is None:
            return None
        return "its" if self.anaphor == "it" else f"{self.anaphor}'s"


def _body(template: str) -> str:
    """A template without its final period (a label's own period stays)."""
    return template[:-1] if template.endswith(".") else template


def _tail(template: str, s: str, o: str) -> str | None:
    body = _body(template)
    return o if body.endswith("{o}") else s if body.endswith("{s}") else None


def opening(template: str, s: str, o: str) -> Said:
    """A template filled in, split at its subject when it opens with "{s} "."""
    body = _body(template)
    tail = _tail(template, s, o)
    if body.startswith("{s} "):
        return Said(fill(body, s, o), s, fill(body[4:], s, o), tail=tail)
    return Said(capitalize(fill(body, s, o)), tail=tail)


def led(lead: str, rest: str, tail: str | None, possessive: bool = False) -> Said:
    """Words that open with entity `lead` and end with entity `tail`: "lead rest", or "lead's rest"."""
    return Said(f"{lead}'s {rest}" if possessive else f"{lead} {rest}", lead, rest, possessive, tail)


def fact_forms(
    spec: RelationSpec,
    s: str,
    o: str,
    inverse: RelationSpec | None = None,
    unique: bool = False,
    entity_object: bool = True,
) -> list[Said]:
    """Every form of the fact (s, spec, o), the relation's own template first; no two alike.

    Args:
        spec: The relation's catalog entry.
        s: Subject label.
        o: Object as it is to be written (a label, or a number already in its surface form).
        inverse: The catalog entry of the relation's inverse, when it has one.
        unique: The subject has this one object, so "the capital of France" names it (phrase forms).
        entity_object: The object is an entity (it may open a sentence); False for numbers and years.

    """
    templates = year_templates(spec.positive) if spec.object_kind == ValueKind.YEAR else [spec.positive]
    forms = [opening(t, s, o) for t in templates]
    if entity_object:
        if spec.symmetric:
            forms.append(opening(spec.positive, o, s))
        if inverse is not None:
            forms.append(opening(inverse.positive, o, s))
        if (m := _PASSIVE.match(spec.positive)) is not None:
            forms.append(led(o, f"{m.group(1)} {s}", s))
        elif (m := _ACTIVE.match(spec.positive)) is not None:
            forms.append(led(o, f"was {m.group(1)} by {s}", s))
    if unique and spec.phrase is not None:
        phrase = spec.phrase.format(s=s)
        forms.append(Said(capitalize(f"{phrase} is {o}"), tail=o))
        if (m := _OF.match(spec.phrase)) is not None:
            forms.append(led(s, f"{m.group(1)} is {o}", o, possessive=True))
        if entity_object:
            forms.append(led(o, f"is {phrase}", _tail(spec.phrase, s, o)))
    out: dict[str, Said] = {}
    for form in forms:
        out.setdefault(form.text, form)
    return list(out.values())


def links(prev: Said, cur: Said, refs: Mapping[str, Ref]) -> list[Link]:
    """The ways `cur` may join `prev` (none: it starts a new sentence)."""
    if cur.lead is None:
        return []
    out: list[Link] = []
    ref = refs.get(cur.lead, Ref(None))
    # after a relative clause, "it" could mean the clause's entity: repeat the name there
    if prev.lead == cur.lead and not prev.merged and (ref.possessive if cur.possessive else ref.anaphor) is not None:
        out.append("pronoun")
    if not prev.merged and not cur.merged:
        if prev.tail == cur.lead and prev.lead != cur.lead:
            out.append("append")
        if prev.lead == cur.lead and not cur.possessive:
            out.append("embed")
    return out


def join(prev: Said, cur: Said, link: Link, refs: Mapping[str, Ref]) -> Said:
    """`cur` joined to `prev` by `link` (see `links`): the new last sentence, or `cur` behind a pronoun."""
    assert cur.lead is not None
    ref = refs.get(cur.lead, Ref(None))
    clause = f"whose {cur.rest}" if cur.possessive else f"{ref.relative} {cur.rest}"
    if link == "pronoun":
        word = ref.possessive if cur.possessive else ref.anaphor
        assert word is not None
        return Said(f"{word} {cur.rest}", cur.lead, cur.rest, cur.possessive, cur.tail, cur.merged)
    if link == "append":
        return Said(f"{prev.text}, {clause}", prev.lead, prev.rest, prev.possessive, cur.tail, merged=True)
    first = f"whose {prev.rest}" if prev.possessive else f"{ref.relative} {prev.rest}"
    return Said(f"{cur.lead}, {first}, {cur.rest}", cur.lead, cur.rest, tail=cur.tail, merged=True)


def compose(parts: Sequence[Said], refs: Mapping[str, Ref], rng: random.Random, chance: float = 0.6) -> list[str]:
    """The facts as sentences; where a join applies, it is taken with probability `chance`.

    A pronoun continues a sentence about the same entity ("It ..."); a relative clause folds a fact
    into the sentence before ("..., which ..."), at most one per sentence.
    """
    out: list[Said] = []
    for cur in parts:
        options = links(out[-1], cur, refs) if out else []
        if options and rng.random() < chance:
            link = rng.choice(options)
            joined = join(out[-1], cur, link, refs)
            if link == "pronoun":
                out.append(joined)
            else:
                out[-1] = joined
            continue
        out.append(cur)
    return [sentence(s.text) for s in out]


__all__ = ["CLASS_TEMPLATE", "Link", "Ref", "Said", "compose", "fact_forms", "join", "led", "links", "opening"]
