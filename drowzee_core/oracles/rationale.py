"""ERBench's rationale oracle: whether a rationale *states* the value the functional dependency infers.

ERBench's own check is a substring test: the gold entity appears in the rationale. Human raters count
a rationale as correct only when it states the value in connection with the question's conditions, so
a mention that is there only to be denied does not count ("Liam Neeson starred in Battleship, but none
of those were directed by Peter Berg"). This oracle:

1. resolves the entity: its folded name, a title without a generic subtitle ("Accident: A Novel" ->
   "Accident"), and, for airports, the IATA / ICAO codes and "<city> [word] airport" from `airportsdata`;
   names of six or more characters also match fuzzily (rapidfuzz partial ratio >= 90, accents folded);
2. keeps the sentences that mention it;
3. drops a mention that is denied: a negation in its sentence outside the entity's name and outside a
   trailing correction (", not France" in "Sakho, who is from Senegal, not France" denies France, not
   Sakho; the entity inside such a correction is denied), or in the next
   sentence when that one opens with "However" / "But" ("... Tron: Legacy, released in 2010. However,
   Jeff Bridges does not star in this movie."), or one that states a year or shirt number none of whose
   values the question has ("Make Her Say ... was released in 2010" for a question about 2009);
4. the rationale is correct when at least one mention survives.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from drowzee_core.oracles.text import fold, sentences

log = logging.getLogger(__name__)

_NEGATION = re.compile(r"\b(?:not|n't|none|never|neither|nor|no)\b")
# a trailing correction ", not <short phrase>" denies only that phrase
_CORRECTION = re.compile(r",\s*not\s+((?:in\s+|by\s+)?[^,;.]{1,40}?)\s*(?=[,;.]|$)", re.IGNORECASE)
_TURN = re.compile(r"^\s*(?:however|but|yet|although)\b", re.IGNORECASE)
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
_SHIRT = re.compile(r"(?:#|number\s+)(\d{1,2})\b", re.IGNORECASE)
_SUBTITLE = re.compile(
    r"^(.{4,}?)\s*:\s*(?:a|an)\s+(?:novel|memoir|thriller|mystery|romance|story)\b.*$", re.IGNORECASE
)
_CITY = "\x00city:"  # marks an alias that matches "<city> [one word] airport"
FUZZY_MIN_LEN = 6
FUZZY_RATIO = 90.0


@dataclass(frozen=True, slots=True)
class RationaleJudgement:
    """Whether a rationale states the value, with the sentences that mention it and those denied."""

    correct: bool
    mentions: tuple[str, ...] = ()
    denied: tuple[str, ...] = field(default_factory=tuple)


@functools.cache
def _airports_by_name() -> dict[str, list[dict[str, str]]]:
    try:
        import airportsdata
    except ImportError:  # pragma: no cover - airportsdata is a dependency of the project
        log.warning("airportsdata is not installed: airport names will not resolve to codes or cities")
        return {}
    index: dict[str, list[dict[str, str]]] = {}
    for rec in airportsdata.load("ICAO").values():
        name = str(rec["name"])
        short = re.sub(r"\s+(?:airport|airfield|airstrip|aerodrome)$", "", name, flags=re.IGNORECASE)
        for key in {fold(name), fold(short)}:
            index.setdefault(key, []).append({k: str(v) for k, v in rec.items()})
    return index


def entity_aliases(entity: str, question: str = "", extra: Iterable[str] = ()) -> set[str]:
    """Folded names under which `entity` may appear in a rationale."""
    out = {fold(entity)} | {fold(e) for e in extra}
    m = _SUBTITLE.match(str(entity))
    if m:
        out.add(fold(m.group(1)))
    if "airport" in question.lower():
        for rec in _airports_by_name().get(fold(entity), []):
            out.update(fold(rec[k]) for k in ("iata", "icao") if rec.get(k))
            if rec.get("city"):
                out.add(_CITY + fold(rec["city"]))
    return {a for a in out if a and a != _CITY}


def _hit(alias: str, folded: str) -> bool:
    if alias.startswith(_CITY):
        city = re.escape(alias[len(_CITY) :])
        return re.search(rf"\b{city}\b(?:\s+\w+)?\s+airport\b", folded) is not None
    if re.search(rf"\b{re.escape(alias)}\b", folded):
        return True
    return (
        len(alias) >= FUZZY_MIN_LEN and len(folded) >= len(alias) and fuzz.partial_ratio(alias, folded) >= FUZZY_RATIO
    )


def _numbers(text: str) -> set[str]:
    return set(_YEAR.findall(text)) | set(_SHIRT.findall(text))


def _denied(sentence: str, following: str, aliases: set[str], asked: set[str]) -> bool:
    if following and _NEGATION.search(fold(following)):
        return True
    stated = _numbers(sentence)
    if asked and stated and not stated & asked:
        return True
    corrections = [fold(m.group(1)) for m in _CORRECTION.finditer(sentence)]
    if any(_hit(a, c) for a in aliases for c in corrections):
        return True  # "directed by Shane Black, not <entity>"
    folded = fold(_CORRECTION.sub(" ", sentence))  # "<entity>, who is from Senegal, not France": France is denied
    for alias in aliases:
        if not alias.startswith(_CITY):
            folded = folded.replace(alias, " ")
    return _NEGATION.search(folded) is not None


def judge_rationale(
    rationale: str, entity: str, question: str = "", extra_aliases: Iterable[str] = ()
) -> RationaleJudgement:
    """Judge whether `rationale` states `entity` (the FD-inferred value) for `question`."""
    if not rationale or not str(entity).strip():
        return RationaleJudgement(False)
    aliases = entity_aliases(entity, question, extra_aliases)
    asked = _numbers(question)
    sents = sentences(rationale)
    mentions: list[str] = []
    denied: list[str] = []
    for i, sent in enumerate(sents):
        folded = fold(sent)
        if not any(_hit(a, folded) for a in aliases):
            continue
        following = sents[i + 1] if i + 1 < len(sents) and _TURN.match(sents[i + 1]) else ""
        (denied if _denied(sent, following, aliases, asked) else mentions).append(sent)
    return RationaleJudgement(bool(mentions), tuple(mentions), tuple(denied))


def rationale_states_all(rationale: str, entities: Sequence[str], question: str = "") -> bool:
    """R-ext for multi-hop questions: every value along the join is stated."""
    return bool(entities) and all(judge_rationale(rationale, e, question).correct for e in entities)


def substring_baseline(rationale: str, entity: str) -> bool:
    """ERBench's own heuristic: the lower-cased entity occurs in the lower-cased rationale."""
    return bool(str(entity).strip()) and str(entity).lower().strip() in str(rationale).lower()
