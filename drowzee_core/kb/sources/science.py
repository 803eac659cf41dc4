"""Natural sciences from mendeleev and ephem.

Elements with discoverers, discovery years and places; named stars and their constellations.
"""

from __future__ import annotations

import re

from drowzee_core.kb.writer import KBWriter

_SPLIT = re.compile(r",\s*|\s+and\s+|/")


def build_mendeleev(w: KBWriter) -> None:
    """118 elements with symbol, atomic number, period, group, block, discoverers, discovery year and country."""
    from mendeleev.fetch import fetch_table

    src, dom = "mendeleev", "natural_sciences"
    table = fetch_table("elements")
    for row in table.itertuples():
        ek = w.entity(f"element:{row.symbol}", str(row.name), aliases=(str(row.symbol),))
        w.triple(ek, "chemical_symbol", w.entity(f"symbol:{row.symbol}", str(row.symbol)), domain=dom, source=src)
        w.triple(ek, "atomic_number", w.quantity(int(row.atomic_number)), domain=dom, source=src)
        w.triple(ek, "in_period", w.entity(f"period:{row.period}", f"period {row.period}"), domain=dom, source=src)
        if row.group_id == row.group_id and row.group_id:  # NaN-safe
            g = int(row.group_id)
            w.triple(ek, "in_group", w.entity(f"group:{g}", f"group {g}"), domain=dom, source=src)
        if isinstance(row.block, str):
            w.triple(ek, "in_block", w.entity(f"block:{row.block}", f"{row.block}-block"), domain=dom, source=src)
        people = str(row.discoverers) if isinstance(row.discoverers, str) else ""
        if people and "ancient" not in people.lower():
            for name in filter(None, (p.strip() for p in _SPLIT.split(people))):
                pk = w.entity(f"discoverer:{name}", name)
                w.triple(ek, "discovered_by", pk, domain=dom, source=src)
        if row.discovery_year == row.discovery_year and row.discovery_year:
            y = int(row.discovery_year)
            w.triple(ek, "discovery_year", w.year(y), domain=dom, source=src, start_year=y, end_year=y)
        if isinstance(row.discovery_location, str):
            for place in filter(None, (p.strip() for p in row.discovery_location.split("/"))):
                w.triple(ek, "discovered_in_country", w.entity(f"place:{place}", place), domain=dom, source=src)


def build_ephem(w: KBWriter) -> None:
    """Named stars and the constellation each lies in."""
    import ephem
    import ephem.stars

    src, dom = "ephem", "natural_sciences"
    for name in sorted(ephem.stars.stars):
        star = ephem.star(name)
        star.compute("2000/1/1")
        _abbr, const = ephem.constellation(star)
        sk = w.entity(f"star:{name}", name)
        w.triple(sk, "in_constellation", w.entity(f"constellation:{const}", const), domain=dom, source=src)
        w.triple(sk, "instance_of", w.entity("class:star", "star"), domain=dom, source=src)
