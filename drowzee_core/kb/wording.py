"""How people word what the catalog's templates say (pure): tense, possessives, superlatives, comparatives.

The catalog phrases each relation once, in the present tense ("The population of {s} is {o}.",
"{s} has the largest population"), and the generators write exactly that. LLM answers say the same
thing in other words: "Norway had a population of 3,784,539", "Greece's population was 5,536,375",
"*India* had the highest population in 1997", "Dnipro had a higher population than Cairo". This
module derives those wordings from the catalog's own templates, so any KB's catalog gets them and
nothing here names a relation:

- `past_tense`: the first present-tense auxiliary ("is", "are", "has", "have") in the past;
- `noun_templates`: for a number or year relation phrased "the N of {s}", "{s}'s N is {o}" and
  "{s} has a N of {o}" (and their past tense); `phrase_templates`: for an entity relation, "The N of {s}
  is {o}" and "{s}'s N is {o}" ("The time zone of Norland is ...");
- `superlatives`: "has the largest N" also as "highest", "biggest", "greatest" ("smallest": "lowest"),
  in both tenses;
- `comparative`: the two-entity form of a superlative, "has a larger N than {o}", "was born earlier
  than {o}"; `noun_comparatives`: "the N of {s} is larger than the N of {o}" (or "than that of {o}");
- `stated_year`: the one year a sentence or question names ("in 1967", "from 1920"), which dates
  a comparison of values that change over time;
- `clauses` / `resolve_pronoun`: a sentence's clauses ("A had ..., B had ..., and C had ..."), and a
  leading pronoun replaced by the previous statement's subject ("Its population was ...");
- `clean_name`: a name without emphasis, quotes or an appositive ("Honshu, the island");
- `listed_names` / `split_names`: the longest list of names in a question ("among Azerbaijan, Norway, East Timor,
  and North Macedonia"), the candidates of a comparison whose answer does not name them.
"""

from __future__ import annotations

import re

from drowzee_core.kb.template_regex import strip_lead

_PRESENT = {"is": "was", "are": "were", "has": "had", "have": "had"}
_AUX = re.compile(r"\b(is|are|has|have)\b")
_NOUN_PHRASE = re.compile(r"^the (?P<n>[a-z][a-z ]*?) of \{s\}$")
_SUPERLATIVE = {
    "largest": ("largest", "highest", "biggest", "greatest"),
    "smallest": ("smallest", "lowest"),
}
_COMPARATIVE = {
    "largest": ("larger", "higher", "bigger", "greater"),
    "smallest": ("smaller", "lower"),
    "earliest": ("earlier",),
    "most recently": ("more recently", "later"),
}
_YEAR = re.compile(r"(?<![\d,.])(?<!\d[,.])(1[0-9]{3}|20[0-9]{2})(?!\d|[,.]\d)")
_NAME = r"[A-Z0-9][\w'’.:&-]*(?:\s+(?:[A-Z0-9][\w'’.:&-]*|of|the|van|von|de|da|del|la|le|and\s+the))*"
_LIST = re.compile(rf"(?P<l>{_NAME}(?:\s*,\s*{_NAME})*,?\s+(?:and|or)\s+{_NAME})")
_MARKUP = "*_`\"'“”"
_QUESTION_WORD = re.compile(
    r"^(?:among|between|of|in|which|who|what|is|are|was|were|did|does|do|how|based\s+on)\s+", re.IGNORECASE
)


def past_tense(template: str) -> str | None:
    """`template` with its first present-tense auxiliary in the past ("is" -> "was"); None without one."""
    m = _AUX.search(template)
    if m is None:
        return None
    return template[: m.start()] + _PRESENT[m.group(1)] + template[m.end() :]


def with_past(templates: list[str]) -> list[str]:
    """The templates and their past-tense forms, without repeats."""
    out = list(templates)
    out += [p for t in templates if (p := past_tense(t)) is not None]
    return list(dict.fromkeys(out))


def noun_templates(phrase: str | None) -> list[str]:
    """For a relation phrased "the N of {s}": "{s}'s N is {o}." and "{s} has a N of {o}." (both tenses)."""
    m = _NOUN_PHRASE.match((phrase or "").strip())
    if m is None:
        return []
    noun = m.group("n")
    article = "an" if noun[0] in "aeiou" else "a"
    return with_past([f"{{s}}'s {noun} is {{o}}.", f"{{s}} has {article} {noun} of {{o}}."])


def phrase_templates(phrase: str | None) -> list[str]:
    """A relation's noun phrase said as a statement, in the present tense (`with_past` adds the past).

    "the time zone of {s}" gives "The time zone of {s} is {o}.", "{o} is the time zone of {s}." and
    "{s}'s time zone is {o}."; "the place where {s} is located" the first two.
    """
    phrase = (phrase or "").strip()
    if "{s}" not in phrase or "{o}" in phrase:
        return []
    out = [f"{phrase[0].upper()}{phrase[1:]} is {{o}}.", f"{{o}} is {phrase}."]
    if m := _NOUN_PHRASE.match(phrase):
        out.append(f"{{s}}'s {m.group('n')} is {{o}}.")
    return out


def superlatives(predicate: str) -> list[str]:
    """A catalog superlative predicate in the words answers use for it (both tenses, synonyms)."""
    words = predicate.strip().split(" ")
    out = [predicate.strip()]
    for i, w in enumerate(words):
        for alt in _SUPERLATIVE.get(w, ()):
            out.append(" ".join([*words[:i], alt, *words[i + 1 :]]))
    return with_past(out)


def comparative(predicate: str) -> list[str]:
    """The two-entity form of a superlative predicate, with `{o}` for the other entity; [] when none.

    "has the largest population" -> "has a larger population than {o}" (and "higher", "bigger",
    "greater", past tense); "was born earliest" -> "was born earlier than {o}".
    """
    text = predicate.strip()
    for sup, comps in _COMPARATIVE.items():
        if f" the {sup} " in f" {text} ":
            head, _, noun = text.partition(f"the {sup} ")
            if not noun:
                continue
            return with_past([f"{head}a {c} {noun} than {{o}}" for c in comps])
        if text.endswith(" " + sup):
            head = text[: -len(sup) - 1]
            return with_past([f"{head} {c} than {{o}}" for c in comps])
    return []


def noun_comparatives(predicate: str, phrase: str | None) -> list[str]:
    """A superlative predicate as a comparison of two noun phrases, with `{s}` and `{o}`; [] when none.

    "has the largest population" with the phrase "the population of {s}" -> "the population of {s}
    is larger than the population of {o}" and "... than that of {o}" (every comparative, both tenses).
    """
    m = _NOUN_PHRASE.match((phrase or "").strip())
    if m is None:
        return []
    noun = m.group("n")
    for sup, comps in _COMPARATIVE.items():
        if predicate.strip().endswith(f"the {sup} {noun}"):
            return with_past(
                [
                    f"the {noun} of {{s}} is {c} than {them}"
                    for c in comps
                    for them in (f"the {noun} of {{o}}", "that of {o}")
                ]
            )
    return []


def stated_year(text: str) -> int | None:
    """The one year `text` names (a standalone 1000-2099 number, not part of "5,536,375"); None for 0 or 2+."""
    years = set(_YEAR.findall(text))
    return int(years.pop()) if len(years) == 1 else None


_APPOSITIVE = re.compile(r",\s+(?:the\s+[a-z][a-z -]*|not\s+[^,]+),?$")
"""A trailing appositive that says what a name is ("Honshu, the island,") or what it is not ("Lyon, not Paris")."""


def clean_name(name: str) -> str:
    """A name without the emphasis, quotes and appositives answers wrap it in ("*Honshu*, the island," -> "Honshu").

    A contrast after it goes too ("Lyon, not Paris" -> "Lyon"): the name is what is said.
    """
    return _APPOSITIVE.sub("", name.strip()).strip().rstrip(",").strip().strip(_MARKUP).strip()


_JOINED = re.compile(r"(?:^|\s)(?:and|or|but)$|^(?:and|or|but)\s", re.IGNORECASE)


def joins_clauses(name: str) -> bool:
    """Whether a captured name starts or ends with a conjunction: it spans two clauses, no one name."""
    return bool(_JOINED.search(name.strip()))


_LIST_BREAK = re.compile(r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+")


def split_names(text: str) -> list[str]:
    """The names of a list "A, B, and C" / "A or B" (each cleaned); one name when `text` is no list."""
    return [n for n in (clean_name(p) for p in _LIST_BREAK.split(clean_name(text))) if n]


def listed_names(question: str) -> list[str]:
    """The longest list of capitalised names in a question ("A, B, C, and D", "A or B"); [] without one."""
    best: list[str] = []
    for m in _LIST.finditer(question):
        names = split_names(m.group("l"))
        if names:
            names[0] = _QUESTION_WORD.sub("", names[0])  # "Among Paris, Lyon and ..." lists "Paris"
        if len(names) > len(best):
            best = names
    return best


_CLAUSE_BREAK = re.compile(r",\s+(?:(?:and|while|whereas|but)\s+)?|;\s+")
"""Where a sentence splits into clauses: ", ", ", and ", ", while ", "; " (never inside "3,784,539")."""
RELATIVE_CLAUSE = re.compile(r"\s*(?:which|who|making|with|as)\b", re.IGNORECASE)
"""A trailing clause that comments on the one before ("..., which was the highest"); not read on its own."""
_PRONOUN = re.compile(r"(its|his|her|their|it|he|she|they)\b", re.IGNORECASE)


def resolve_pronoun(sentence: str, antecedent: str) -> str | None:
    """`sentence` with its leading pronoun replaced by `antecedent` ("Its population" -> "Paris's population")."""
    cut = strip_lead(sentence)
    m = _PRONOUN.match(sentence, cut)
    if m is None:
        return None
    name = f"{antecedent}'s" if m.group(1).lower() in ("its", "his", "her", "their") else antecedent
    if m.group(1)[0].isupper():  # "It was ..." about "prime number theorem": the sentence still opens with a capital
        name = name[:1].upper() + name[1:]
    return sentence[:cut] + name + sentence[m.end(1) :]


def first_named(sentence: str, subject: str, obj: str | None) -> str:
    """Of a claim's subject and object, the one its sentence names first: what "It" in the next sentence is.

    "China is the place where Wangyuan is located. Its population ..." reads as located_in(Wangyuan,
    China); "Its" is China, the sentence's own subject, not the claim's.
    """
    found = [(at, name) for name in (subject, obj) if name and (at := sentence.find(name)) >= 0]
    return min(found)[1] if found else subject


def clauses(sentence: str, start: int) -> list[tuple[int, str]]:
    """(offset, text) of each clause of `sentence` (which starts at `start`)."""
    out, at = [], 0
    for m in [*_CLAUSE_BREAK.finditer(sentence), None]:
        end = m.start() if m is not None else len(sentence)
        if sentence[at:end].strip():
            out.append((start + at, sentence[at:end]))
        at = m.end() if m is not None else at
    return out


LEADING_FUNCTION_WORDS = frozenset(
    {"The", "A", "An", "In", "On", "At", "By", "From", "It", "Its", "He", "His", "She", "Her", "They", "Their"}
    | {"There", "This", "That", "These", "Those", "Until", "Since", "Before", "After"}
)
"""Words that are capitalised only because they start a sentence (never a name)."""


def lower_lead(sentence: str) -> str:
    """The sentence with its first word lower-cased when that is a function word ("In 1990, ...", "It ...")."""
    first = sentence.split(" ", 1)[0].rstrip(",")
    return sentence[:1].lower() + sentence[1:] if first in LEADING_FUNCTION_WORDS else sentence


__all__ = [
    "LEADING_FUNCTION_WORDS",
    "RELATIVE_CLAUSE",
    "clauses",
    "clean_name",
    "comparative",
    "first_named",
    "joins_clauses",
    "listed_names",
    "lower_lead",
    "noun_comparatives",
    "noun_templates",
    "past_tense",
    "phrase_templates",
    "resolve_pronoun",
    "split_names",
    "stated_year",
    "superlatives",
    "with_past",
]
