"""Sentences for a relation known only by its label ("director", "distributed by", "member of"), pure.

A loaded or supplied relation has no templates of its own. Its label says how to word it:

- a participle and a preposition ("distributed by", "located in", "named after") is passive:
  "{s} is distributed by {o}.";
- a noun and a participle ("award received", "position held") is what the subject did: "{s} received
  the award {o}.";
- a noun and "of" ("member of", "part of") is a predicate noun: "{s} is a member of {o}.";
- a verb in the third person ("follows", "uses the currency", "shares a border with") is said as is:
  "{s} follows {o}.";
- any other label is a relational noun of the subject ("director", "place of birth"):
  "The director of {s} is {o}."

Only the label's own words decide (no parser): endings, a closed list of prepositions and
irregular participles, and the verbs Wikidata-style labels start with.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

PREPOSITIONS = frozenset({"by", "in", "of", "on", "at", "to", "from", "with", "for", "after", "as", "into", "under"})
IRREGULAR_PARTICIPLES = frozenset(
    {"born", "written", "made", "known", "held", "built", "sung", "drawn", "given", "shown", "taken", "set"}
    | {"shot", "won", "led", "sold", "told", "found", "begun", "run", "done", "seen", "spoken", "chosen"}
)
VERBS = frozenset(
    {"follows", "replaces", "contains", "includes", "uses", "shares", "borders", "owns", "has", "speaks"}
    | {"precedes", "succeeds", "influences", "features", "hosts", "produces", "publishes", "depicts", "employs"}
)
"""Verbs a label may start with in the third person singular ("follows", "has part")."""
MASS = frozenset({"part"})
"""Predicate nouns said without an article ("part of")."""


class LabelForm(StrEnum):
    """How a label is worded in a sentence."""

    PASSIVE = "passive"
    OBJECT_PARTICIPLE = "object_participle"
    PREDICATE_NOUN = "predicate_noun"
    VERB = "verb"
    NOUN = "noun"


@dataclass(frozen=True, slots=True)
class LabelWording:
    """Templates with {s} and {o} for a label, and the form they follow."""

    form: LabelForm
    positive: str
    negative: str
    question: str


def label_form(label: str) -> LabelForm:
    """The grammatical form of a relation label (module docstring)."""
    words = label.strip().lower().split()
    if not words:
        return LabelForm.NOUN
    first, last = words[0], words[-1]
    if first in VERBS:
        return LabelForm.VERB
    participle = first.endswith("ed") or first in IRREGULAR_PARTICIPLES
    if len(words) >= 2 and participle and (last in PREPOSITIONS or words[1] in PREPOSITIONS):
        return LabelForm.PASSIVE
    if len(words) == 2 and last == "of":
        return LabelForm.PREDICATE_NOUN
    if len(words) == 2 and (last.endswith("ed") or last in IRREGULAR_PARTICIPLES) and first not in PREPOSITIONS:
        return LabelForm.OBJECT_PARTICIPLE
    return LabelForm.NOUN


def _article(noun: str) -> str:
    if noun.split()[0].lower() in MASS:
        return ""
    return "an " if noun[:1].lower() in "aeiou" else "a "


def label_wording(label: str) -> LabelWording:
    """Positive, negative and question templates for a relation label."""
    lab = " ".join(label.split())
    form = label_form(lab)
    if form == LabelForm.PASSIVE:
        return LabelWording(form, f"{{s}} is {lab} {{o}}.", f"{{s}} is not {lab} {{o}}.", f"Is {{s}} {lab} {{o}}?")
    if form == LabelForm.PREDICATE_NOUN:
        a = _article(lab)
        return LabelWording(
            form, f"{{s}} is {a}{lab} {{o}}.", f"{{s}} is not {a}{lab} {{o}}.", f"Is {{s}} {a}{lab} {{o}}?"
        )
    if form == LabelForm.OBJECT_PARTICIPLE:
        noun, verb = lab.split()
        said = f"{{s}} {verb} the {noun} {{o}}"
        return LabelWording(form, f"{said}.", f"It is not the case that {said}.", f"Is it true that {said}?")
    if form == LabelForm.VERB:
        return LabelWording(
            form,
            f"{{s}} {lab} {{o}}.",
            f"It is not the case that {{s}} {lab} {{o}}.",
            f"Is it true that {{s}} {lab} {{o}}?",
        )
    return LabelWording(
        form, f"The {lab} of {{s}} is {{o}}.", f"The {lab} of {{s}} is not {{o}}.", f"Is the {lab} of {{s}} {{o}}?"
    )


__all__ = ["LabelForm", "LabelWording", "label_form", "label_wording"]
