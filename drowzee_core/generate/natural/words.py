"""Surface forms that do not depend on a relation: numbers, years, hedges, short answers (pure).

Every form here is exact: it says the same value or the same claim as the catalog's template, so a
re-worded response keeps its label. A number is written with thousands commas, in words (0-20) or as
"N million" / "N billion" only when it is a whole number of millions / billions; never rounded, so a
wrong number stays wrong.
"""

from __future__ import annotations

from collections.abc import Sequence

from drowzee_core.generate.templates_kb import clause, join_names, parse_number
from drowzee_core.kb.model import ValueKind

NUMBER_WORDS: tuple[str, ...] = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)
"""Whole numbers written in words (the small ones)."""
SCALES: tuple[tuple[int, str], ...] = ((10**9, "billion"), (10**6, "million"))
YEAR_PHRASES: tuple[str, ...] = ("in {o}", "in the year {o}", "back in {o}")
"""What " in {o}" of a year template may become."""
HEDGES: tuple[str, ...] = ("I believe", "I think", "As far as I know,", "If I remember correctly,", "To my knowledge,")
"""Hedges put before a first sentence; each still asserts it."""
TRAILING_HEDGES: tuple[str, ...] = ("I believe", "if I remember correctly", "as far as I know")
"""Hedges put after a short answer ("Paris, I believe.")."""
SHORT_ANSWERS: tuple[str, ...] = ("{a}.", "It's {a}.", "That would be {a}.", "The answer is {a}.")
"""Short answers to a wh-question; `{a}` is the answer."""
ONE_MEMBER: tuple[str, ...] = ("{a}.", "Only {a}.", "Just {a}.", "{a} is the only one.", "The only one is {a}.")
"""Answers that name the only member of a set."""
MEMBERS: tuple[str, ...] = (
    "{a}.",
    "They are {a}.",
    "The answer is {a}.",
    "{a} meet these criteria.",
    "There are {n} of them: {a}.",
)
"""Answers that name every member of a set (`{n}`: how many, in words)."""
CHAIN_ENDS: tuple[str, ...] = (
    "So {x} is {a}.",
    "Hence {x} is {a}.",
    "That makes {a} {x}.",
    "{x} is therefore {a}.",
    "The answer is therefore {a}.",
)
"""Conclusions of a multi-hop chain (`{x}`: the nested phrase, `{a}`: the answer)."""
COMPARISON_ENDS: tuple[str, ...] = ("So {a} {p}.", "That means {a} {p}.", "{a} therefore {p}.", "Hence {a} {p}.")
"""Conclusions of a comparison after its facts (`{p}`: the catalog's most / least predicate)."""
_LOWERED = ("It ", "Its ", "Only ", "Just ", "That ", "They ", "There ")


def number_forms(text: str, kind: ValueKind) -> list[str]:
    """Every exact way to write a quantity: `text` itself when no other form applies.

    Years and non-numbers are returned unchanged; whole numbers up to twenty also in words; numbers of
    four digits or more with thousands commas, and whole millions / billions as "67 million".

    Args:
        text: The value as the KB labels it ("67000000", "2.5").
        kind: The relation's object kind; only quantities are re-written.

    """
    value = parse_number(text)
    if kind != ValueKind.QUANTITY or value is None:
        return [text]
    whole, _, frac = text.replace(",", "").partition(".")
    forms: list[str] = []
    if value == int(value) and 0 <= value < len(NUMBER_WORDS):
        forms += [NUMBER_WORDS[int(value)], text]
    elif abs(value) >= 1000:
        sign, digits = ("-", whole[1:]) if whole.startswith("-") else ("", whole)
        forms.append(f"{sign}{int(digits):,}" + (f".{frac}" if frac else ""))
        if value == int(value):
            for scale, word in SCALES:
                if int(value) % scale == 0:
                    forms.append(f"{int(value) // scale:,} {word}")
                    break
    return forms or [text]


def year_templates(template: str) -> list[str]:
    """A year relation's template with each phrase of `YEAR_PHRASES` for its " in {o}" (unchanged without one)."""
    if " in {o}" not in template:
        return [template]
    return [template.replace(" in {o}", " " + phrase) for phrase in YEAR_PHRASES]


def capitalize(text: str) -> str:
    """`text` with its first letter upper-cased, unless its first word is mixed-case ("iPhone", "d-block")."""
    first = text.split(" ", 1)[0]
    if not first[:1].islower() or any(c.isupper() for c in first[1:]) or "-" in first:
        return text
    return first[:1].upper() + text[1:]


def sentence(text: str) -> str:
    """A clause as a sentence: first letter capitalized, one final period."""
    text = capitalize(text.strip())
    return text if text.endswith((".", "?", "!")) else text + "."


def lowered(text: str) -> str:
    """A sentence as a clause after a hedge: no final period, a leading article or pronoun lower-cased."""
    out = clause(text)
    return out[:1].lower() + out[1:] if out.startswith(_LOWERED) else out


def hedged(text: str, which: int, proper: bool = False) -> str:
    """A sentence behind hedge `which` of `HEDGES` ("I believe the capital of France is Paris.").

    Args:
        text: The sentence.
        which: Index into `HEDGES`.
        proper: The sentence opens with a name ("The Hague ..."), whose case stays.

    """
    body = text[:-1] if proper and text.endswith(".") else text if proper else lowered(text)
    return sentence(f"{HEDGES[which % len(HEDGES)]} {body}")


def short_answer(answer: str, which: int, hedge: int | None = None) -> str:
    """A short answer of form `which` of `SHORT_ANSWERS`; with `hedge`, the bare answer and a trailing hedge."""
    if hedge is not None:
        return sentence(f"{answer}, {TRAILING_HEDGES[hedge % len(TRAILING_HEDGES)]}")
    return sentence(SHORT_ANSWERS[which % len(SHORT_ANSWERS)].format(a=answer))


def ending(forms: Sequence[str], which: int, **words: str) -> str:
    """Conclusion `which` of `forms` (`CHAIN_ENDS`, `COMPARISON_ENDS`) filled with `words`, as a sentence."""
    return sentence(forms[which % len(forms)].format(**words))


def members_answer(names: Sequence[str], which: int, hedge: int | None = None) -> str:
    """An answer that lists a set's members with form `which` (of `ONE_MEMBER` or `MEMBERS`).

    With `hedge`, the bare list and a trailing hedge ("Laos and Thailand, I believe.").
    """
    listed = join_names(list(names))
    if hedge is not None:
        return short_answer(listed, 0, hedge)
    if len(names) == 1:
        return sentence(ONE_MEMBER[which % len(ONE_MEMBER)].format(a=listed))
    n = len(names)
    count = NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)
    return sentence(MEMBERS[which % len(MEMBERS)].format(a=listed, n=count))


__all__ = [
    "CHAIN_ENDS",
    "COMPARISON_ENDS",
    "HEDGES",
    "MEMBERS",
    "NUMBER_WORDS",
    "ONE_MEMBER",
    "SHORT_ANSWERS",
    "TRAILING_HEDGES",
    "YEAR_PHRASES",
    "capitalize",
    "ending",
    "hedged",
    "lowered",
    "members_answer",
    "number_forms",
    "sentence",
    "short_answer",
    "year_templates",
]
