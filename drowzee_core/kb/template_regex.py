"""Catalog templates as bounded regexes (pure): the pattern pieces the statement reader compiles.

`{s}` / `{o}` become named lazy groups of at most `MAX_ENTITY_CHARS` characters (bounded, so a long
text without sentence ends stays linear); literal text is escaped and its spaces match any whitespace.
"""

from __future__ import annotations

import re

MAX_ENTITY_CHARS = 300
"""Longest entity surface a template group reads (the catalog's labels are far shorter)."""

PLACEHOLDER = re.compile(r"\{(s|o)\}")
"""A template's `{s}` / `{o}` slot."""
ENTITY = r"(?P<{name}>(?!\s)[^\n]{{1,{n}}}?)"
"""A lazy, bounded entity group (format with `name` and `n`)."""
_VALUE = r"(?P<o>[-+]?\d[\d,]*(?:\.\d+)?(?:\s*(?:BC|BCE|AD|CE|thousand|million|billion))?)"
_LEAD = re.compile(
    r"^(?:[-*\u2022]\s+|\d+[.)]\s+)?(?:(?:yes|no)\b[\s,.:;!-]*)?"
    r"(?:(?:so|therefore|thus|hence|also|and|but|because|since|in fact|indeed|moreover|furthermore|however|overall)"
    r"\b,?\s*)?"
    r"(?:(?:in|among|of|according\s+to|based\s+on|as\s+of|during|between)\s+[^,\n]{1,80},\s+)?",
    re.IGNORECASE,
)
"""A leading bullet, "Yes" / "No", connective, and introductory phrase ("In 1967, ", "Among the given
states, ", "According to the evidence, "): what `strip_lead` drops before a sentence is read."""
_DOTTED_END = re.compile(r"(?:^|[\s.])[A-Za-z]\.[A-Za-z]$")


_ARTICLE_SLOT = re.compile(r"\b([Aa]n?) \{(s|o)\}")
_AN_SOUND = re.compile(r"^(?:[aeio]|u(?!ni|s[aeu]|ra|ro|ku|ti)|h(?:our|onest|onou?r|eir))", re.IGNORECASE)


def indefinite(word: str) -> str:
    """The indefinite article for a word by its first letters.

    "an" before a vowel sound ("an emperor", "an hour"), else "a" ("a writer", "a university", "a European").
    """
    return "an" if _AN_SOUND.match(word) and not word.lower().startswith(("eu", "one", "once")) else "a"


def fill(template: str, s: object, o: object) -> str:
    """A catalog template with its slots filled, its article before a slot agreeing with the value.

    The catalog writes "{s} was a {o}."; filled with "emperor" that reads "was an emperor".
    """

    def article(m: re.Match[str]) -> str:
        a = indefinite(str(s if m.group(2) == "s" else o))
        return (a.capitalize() if m.group(1)[0] == "A" else a) + " {" + m.group(2) + "}"

    return _ARTICLE_SLOT.sub(article, template).format(s=s, o=o)


def literal_pattern(text: str, first: bool = False) -> str:
    """Escaped literal text whose spaces match any whitespace; with `first`, its first letter either case.

    An indefinite article matches either form ("a" or "an"), as `fill` writes the one the value needs.
    """
    words = [r"an?" if w in ("a", "an") else re.escape(w) for w in text.split(" ")]
    pattern = r"\s+".join(words)
    if first and text[:1].isalpha():
        c = text[0]
        pattern = f"[{c.lower()}{c.upper()}]" + pattern[1:]
    return pattern


def template_pattern(template: str, end: str, numeric_object: bool = False) -> tuple[str, int, str]:
    """A template as a regex body, the length of its literal text and its longest literal (lower-cased).

    With `numeric_object`, `{o}` reads only a number or year ("Is the population of Mount Vernon 47637?").
    """
    body = template.strip().rstrip(".?!").rstrip()
    parts = PLACEHOLDER.split(body)
    out: list[str] = []
    seen: set[str] = set()
    literals: list[str] = []
    for i, part in enumerate(parts):
        if i % 2:
            if part in seen:
                out.append(f"(?P={part})")
            else:
                out.append(_VALUE if part == "o" and numeric_object else ENTITY.format(name=part, n=MAX_ENTITY_CHARS))
            seen.add(part)
        elif part:
            literals.append(part.strip())
            out.append(literal_pattern(part, first=i == 0))
    probe = max(literals, key=len).lower() if literals else ""
    return "".join(out) + end, sum(len(x) for x in literals), probe


def template_shape(template: str) -> str:
    """A template's words with either slot ("{x} is the capital of {x}"), any case, no final stop."""
    return PLACEHOLDER.sub("{x}", template.strip().rstrip(".")).casefold()


def strip_lead(sentence: str) -> int:
    """How many leading characters are a connective ("So", "Yes, because", a list bullet) to drop."""
    m = _LEAD.match(sentence)
    return m.end() if m else 0


def fix_object(obj: str) -> str:
    """Give back the final period of a dotted abbreviation that the optional sentence end took ("D.C")."""
    return obj + "." if _DOTTED_END.search(obj) else obj


__all__ = [
    "ENTITY",
    "MAX_ENTITY_CHARS",
    "PLACEHOLDER",
    "fix_object",
    "literal_pattern",
    "strip_lead",
    "template_pattern",
    "template_shape",
]
