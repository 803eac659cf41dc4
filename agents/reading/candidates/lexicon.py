"""Relation patterns derived from the catalog's own templates (no sentence templates of any dataset).

Each relation's statement templates (`positive`, its `antonyms` as negated forms, `question`, and its
noun phrase `phrase` said as "<phrase> is {o}" and "{o} is <phrase>"; a number's relation also as
"{s} has <label> {o}" and "{s} has a <label> of {o}") are parsed once with the same
spaCy pipeline that reads responses. A template becomes an ordered
pattern: the subject slot, the object slot and the *cue* lemmas between them (content words: verbs,
nouns, adjectives; and the passive agent "by", which decides the direction). Determiners, auxiliaries
and other prepositions are left out, so "France's capital is Paris", "The capital of France is Paris"
and "is Paris the capital of France?" all keep their cue ("capital") and order. A symmetric relation
also matches with both names before the cue ("Germany and France share a border").
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import RelationCategory, ValueKind

SLOT_S, SLOT_O = "\x00s", "\x00o"
"""Pattern items standing for the subject and object slots."""
_FILL = {"{s}": "Alice", "{o}": "Bob"}
_FILL_VALUE = {ValueKind.YEAR: "1900", ValueKind.QUANTITY: "4200"}
CUE_POS = frozenset({"VERB", "NOUN", "ADJ", "PROPN"})
AGENT = "by"
OF = "of"
PARTICLES = frozenset({AGENT, OF})
"""Prepositions that decide a direction: the passive agent ("discovered by") and the possessor ("capital of")."""
SKIP_LEMMAS = frozenset({"be", "do", "have", "not", "situate"})
MAX_LABEL_CHARS = 80
LIGHT_VERBS = frozenset({"share", "make", "take", "give", "hold", "have"})
"""Verbs whose noun carries the relation: "share a border with" is also said "border"."""
"""Lemmas that carry no relation of their own ("is situated on the continent of" keeps "continent")."""


@dataclass(frozen=True, slots=True)
class Pattern:
    """One ordered pattern of a relation: slots and cue lemmas in sentence order."""

    relation: str
    items: tuple[str, ...]
    negated: bool
    object_kind: ValueKind
    past: bool
    """The template is in the past tense ("was born"), so a past-tense sentence is not a past statement."""
    passive: bool = False
    """The template's verb is passive ("{s} was discovered in {o}"): the sentence's must be too."""
    direct: bool = False
    """The pattern's last slot is its verb's direct object ("{s} borders {o}", "{o} surveyed {s}"): a name
    after a preposition ("surveyed it at X") never fills it."""

    @property
    def cues(self) -> tuple[str, ...]:
        """The cue lemmas, in order (particles included)."""
        return tuple(i for i in self.items if i not in (SLOT_S, SLOT_O))


def _fill(template: str, kind: ValueKind) -> str:
    text = template.replace("{s}", _FILL["{s}"])
    return text.replace("{o}", _FILL_VALUE.get(kind, _FILL["{o}"]))


def pattern_items(doc: Any, kind: ValueKind, keep_preps: bool = False) -> tuple[tuple[str, ...], bool]:
    """Slots, cue lemmas and direction particles of a filled-in template's parse, and whether it is past.

    With `keep_preps` (an antonym: "{s} lies outside {o}"), prepositions and adverbs are cues too: they
    carry its meaning, and without them it would read the positive "Nairobi lies in Africa".
    """
    obj = _FILL_VALUE.get(kind, _FILL["{o}"])
    items: list[str] = []
    for tok in doc:
        if tok.text == _FILL["{s}"]:
            items.append(SLOT_S)
        elif tok.text == obj:
            items.append(SLOT_O)
        elif tok.lemma_.lower() == AGENT and tok.dep_ == "agent":
            items.append(AGENT)
        elif tok.lower_ == OF and tok.dep_ == "prep" and tok.head.pos_ in ("NOUN", "PROPN"):
            items.append(OF)
        elif _is_cue_word(tok, keep_preps):
            items.append(tok.lemma_.lower())
    past = any(t.tag_ == "VBD" for t in doc)
    return tuple(items), past


def _is_cue_word(tok: Any, keep_preps: bool) -> bool:
    """A content word (not a light lemma), or with `keep_preps` a preposition or adverb ("outside")."""
    if tok.pos_ in CUE_POS and tok.lemma_.lower() not in SKIP_LEMMAS:
        return True
    return keep_preps and tok.pos_ in ("ADP", "ADV") and tok.is_alpha


def _light_verb_variant(doc: Any, items: tuple[str, ...]) -> tuple[str, ...] | None:
    """The items with a light verb and its noun said as one verb ("share a border" -> "border")."""
    verbs = {t.lemma_.lower() for t in doc if t.pos_ == "VERB" and t.lemma_.lower() in LIGHT_VERBS}
    nouns = {t.lemma_.lower(): t for t in doc if t.pos_ == "NOUN" and t.head.lemma_.lower() in verbs}
    if not verbs or not nouns:
        return None
    return tuple(i for i in items if i not in verbs)


def _symmetric_variant(items: tuple[str, ...]) -> tuple[str, ...] | None:
    """The items with the object slot moved right after the subject ("A and B share a border")."""
    if SLOT_S not in items or SLOT_O not in items:
        return None
    rest = [i for i in items if i not in (SLOT_O, *PARTICLES)]
    at = rest.index(SLOT_S) + 1
    return tuple([*rest[:at], SLOT_O, *rest[at:]])


class Lexicon:
    """Every relation's patterns, parsed once per catalog."""

    def __init__(self, patterns: Sequence[Pattern], inverse: Mapping[str, str] | None = None) -> None:
        self.patterns = tuple(patterns)
        self.cue_lemmas = frozenset(c for p in self.patterns for c in p.cues)
        self.inverse = dict(inverse or {})

    def canonical(self, reading: Any) -> tuple[str, str, str, bool]:
        """(relation, subject, object, negated) with a relation and its inverse written one way.

        "Berlin is the capital of Germany" read as `capital_of` and as `has_capital` is one claim.
        """
        rel, s, o = reading.relation, reading.subject, reading.object
        inv = self.inverse.get(rel)
        if inv is not None and inv < rel:
            rel, s, o = inv, o, s
        return rel, s, o, reading.negated

    @classmethod
    def from_catalog(cls, catalog: Catalog, parse: Callable[[str], Any]) -> Lexicon:
        """The patterns of every relation of `catalog`, parsed with `parse` (a spaCy pipeline)."""
        out: list[Pattern] = []
        for rel in catalog:
            forms = [(rel.positive, False), (rel.question, False), *((a, True) for a in rel.antonyms)]
            if rel.phrase and "{s}" in rel.phrase:  # "the time zone of {s}": "<phrase> is {o}", "{o} is <phrase>"
                forms += [
                    (f"{rel.phrase[:1].upper()}{rel.phrase[1:]} is {{o}}.", False),
                    (f"{{o}} is {rel.phrase}.", False),
                ]
            # a passive inverse's own templates say the other voice ("discovered" / "discovered by")
            inverse = catalog.get(rel.inverse_of) if rel.inverse_of is not None and rel.inverse_of in catalog else None
            said_passive = inverse is not None and inverse.category == RelationCategory.PASSIVE_VERB
            active = rel.category == RelationCategory.ACTIVE_VERB and not rel.symmetric and not said_passive
            alone = rel.category == RelationCategory.PASSIVE_VERB and inverse is None  # no active relation says it
            out += patterns_of(rel.name, forms, rel.object_kind, rel.symmetric, parse, active, alone)
            if rel.object_kind == ValueKind.QUANTITY:  # "Iron has atomic number 26", "X has a population of 5,000"
                has = [(f"{{s}} has {rel.label} {{o}}.", False), (f"{{s}} has a {rel.label} of {{o}}.", False)]
                out += [_with_have(p) for p in patterns_of(rel.name, has, rel.object_kind, False, parse)]
        return cls(_unique(out), {r.name: r.inverse_of for r in catalog if r.inverse_of is not None})

    @classmethod
    def from_labels(cls, labels: Iterable[str], parse: Callable[[str], Any]) -> Lexicon:
        """Patterns for relation labels as supplied triples write them ("directed by", "operating system").

        A label that starts with a verb or ends with a preposition is a verb phrase ("{s} is directed
        by {o}", and actively "{o} directed {s}"); any other is a relational noun ("The operating
        system of {s} is {o}", "{o} is the operating system of {s}"; not "{s} has the operating system {o}",
        whose cues, "have" being no cue, would read "{s} is the operating system of {o}" backwards). A
        relational noun's value is also said with "have ... of", as "X has a population of N" is: "{s} has
        the operating system of {o}", with "have" a cue, so that it outweighs "{o} is the ... of {s}". A
        form that yields no cue adds nothing.
        """
        out: list[Pattern] = []
        for label in dict.fromkeys(" ".join(x.split()) for x in labels):
            if not label or "{" in label or len(label) > MAX_LABEL_CHARS:
                continue
            words = parse(label)
            verbal = words[0].tag_.startswith("VB") or words[-1].pos_ == "ADP"
            if verbal:
                forms = [(f"{{s}} is {label} {{o}}.", False)]
                if label.endswith(" by"):  # "directed by" is also said actively: "{o} directed {s}"
                    forms.append((f"{{o}} {label[:-3]} {{s}}.", False))
            else:
                forms = [(f"The {label} of {{s}} is {{o}}.", False), (f"{{o}} is the {label} of {{s}}.", False)]
                has = [(f"{{s}} has the {label} of {{o}}.", False)]
                out += [_with_have(p) for p in patterns_of(label, has, ValueKind.ENTITY, False, parse)]
            out += patterns_of(label, forms, ValueKind.ENTITY, False, parse)
        return cls(_unique(out))

    def merged(self, other: Lexicon) -> Lexicon:
        """A lexicon with the patterns of both."""
        return Lexicon(_unique([*self.patterns, *other.patterns]), self.inverse | other.inverse)


def patterns_of(
    relation: str,
    forms: Sequence[tuple[str, bool]],
    kind: ValueKind,
    symmetric: bool,
    parse: Callable[[str], Any],
    active: bool = False,
    passive_alone: bool = False,
) -> list[Pattern]:
    """The patterns of one relation's templates ((template, negated) pairs with `{s}` and `{o}`).

    `active`: the relation is of the active-verb category, so its plain templates are also read in
    the passive. `passive_alone`: the relation is of the passive-verb category and no declared inverse
    says it actively, so its "{s} was <verb> by {o}" templates are also read actively ("{o} <verb> {s}").
    """
    out = []
    for template, negated in forms:
        if "{s}" not in template or "{o}" not in template:
            continue
        doc = parse(_fill(template, kind))
        items, past = pattern_items(doc, kind, keep_preps=negated)
        passive = any(t.dep_ == "auxpass" for t in doc)
        variants: list[tuple[str, ...] | None] = [items]
        light = _light_verb_variant(doc, items)
        if light is not None:
            variants.append(light)
        if symmetric:
            variants += [_symmetric_variant(v) for v in list(variants) if v is not None]
        # the object follows its verb with nothing between ("{s} discovered {o}", "Did {s} discover {o}?")
        direct = any(
            t.text == _FILL_VALUE.get(kind, _FILL["{o}"]) and t.i > 0 and doc[t.i - 1].pos_ == "VERB" for t in doc
        )
        for v in variants:
            if v is not None and SLOT_S in v and SLOT_O in v and any(_is_cue(i) for i in v):
                out.append(Pattern(relation, v, negated, kind, past, passive, direct and v is items))
        if (converse := _passive_variant(doc, items, kind, passive, active)) is not None:
            out.append(Pattern(relation, converse, negated, kind, past=False, passive=True))
        if passive_alone and (converse := _active_variant(items, kind, passive)) is not None:
            out.append(Pattern(relation, converse, negated, kind, past, passive=False, direct=True))  # "surveyed"
        if _intransitive_value(doc, kind, passive):  # "{s} opened in {o}" is also "{s} was opened in {o}"
            out.append(Pattern(relation, items, negated, kind, past, passive=True))
    return out


def _intransitive_value(doc: Any, kind: ValueKind, passive: bool) -> bool:
    """Whether an active template with a year or number says it with a verb that takes no object.

    Such a verb reads the same in the passive ("the museum opened in 1931", "was opened in 1931"); a
    transitive one does not ("X discovered Y in 1774" is no "X was discovered in 1774").
    """
    if passive or kind == ValueKind.ENTITY:
        return False
    verbs = [t for t in doc if t.pos_ == "VERB"]
    return bool(verbs) and not any(c.dep_ in ("dobj", "obj") for v in verbs for c in v.children)


def _passive_variant(
    doc: Any, items: tuple[str, ...], kind: ValueKind, passive: bool, active: bool
) -> tuple[str, ...] | None:
    """The items of an active template said in the passive: "{s} mentors {o}" -> "{o} is mentored by {s}".

    Only for a relation of the active-verb category whose template reads "{s} <verb phrase> {o}" with
    no preposition before the object; the cues keep their lemmas ("mentor"), which both voices share
    (the parser may tag an unusual verb as a noun in the filled-in template, so the category decides).
    """
    if passive or not active or AGENT in items or kind != ValueKind.ENTITY:
        return None
    obj = next((t for t in doc if t.text == _FILL["{o}"]), None)
    if obj is None or obj.i == 0 or doc[obj.i - 1].pos_ == "ADP" or items[0] != SLOT_S or items[-1] != SLOT_O:
        return None  # "{s} works for {o}": no passive with the object as its subject
    cues = tuple(i for i in items if i not in (SLOT_S, SLOT_O))
    return (SLOT_O, *cues, AGENT, SLOT_S) if cues else None


def _active_variant(items: tuple[str, ...], kind: ValueKind, passive: bool) -> tuple[str, ...] | None:
    """The items of a passive template said actively: "{s} was surveyed by {o}" -> "{o} surveyed {s}".

    Only for a template of exactly a subject, verb cues, the agent's "by" and an entity object; the
    cues keep their lemmas ("survey"), which both voices share, and the voice of the verb is checked
    when a sentence is read (`reader._place`), so a passive sentence never matches it backwards.
    """
    if not passive or kind != ValueKind.ENTITY or len(items) < 4:
        return None
    if items[0] != SLOT_S or items[-2:] != (AGENT, SLOT_O):
        return None
    cues = items[1:-2]
    if not cues or not all(_is_cue(c) for c in cues):
        return None
    return (SLOT_O, *cues, SLOT_S)


HAVE = "have"


def _with_have(pattern: Pattern) -> Pattern:
    """The pattern with "have" as a cue right after the subject: "X ... with a population of N" is no "has" form."""
    at = pattern.items.index(SLOT_S) + 1
    return dataclasses.replace(pattern, items=(*pattern.items[:at], HAVE, *pattern.items[at:]))


def _unique(patterns: Iterable[Pattern]) -> list[Pattern]:
    """The patterns once each; a pattern one template says with a direct object is direct for all of them.

    The parser may tag a verb of a question template as a noun ("Did {s} chart {o}?"), so its object
    looks indirect where the statement's is direct.
    """
    out: dict[Pattern, Pattern] = {}
    for p in patterns:
        key = dataclasses.replace(p, direct=False)
        out[key] = dataclasses.replace(p, direct=p.direct or out[key].direct) if key in out else p
    return list(out.values())


def _is_cue(item: str) -> bool:
    return item not in (SLOT_S, SLOT_O, *PARTICLES) and re.fullmatch(r"[a-z][a-z-]*", item) is not None


__all__ = ["AGENT", "OF", "PARTICLES", "SLOT_O", "SLOT_S", "Lexicon", "Pattern", "pattern_items"]
