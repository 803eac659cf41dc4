"""HTML of the Knowledge base tab: KB counts, an entity, its stored and derived facts, a proof, a load (escaped)."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from service.ui.render import proof_html

if TYPE_CHECKING:
    from service.kbload import LoadResult
    from service.kbview import DerivedFacts, EntityFacts, EntityHit, KBSummary
    from service.runtime import ProveResponse


def _chip(text: str, status: str = "") -> str:
    return f"<span class='dz-chip dz-chip-{status}'>{escape(text)}</span>" if status else _code(text)


def _code(text: str) -> str:
    return f"<code>{escape(text)}</code>"


def _section(title: str, body: str) -> str:
    return f"<div class='dz-section'><div class='dz-section-title'>{title}</div>{body}</div>"


def stats_html(s: KBSummary) -> str:
    """The KB's counts and fingerprint on one line."""
    return (
        f"<div class='dz-muted'><strong>{s.entities:,}</strong> entities &middot; <strong>{s.triples:,}</strong>"
        f" triples &middot; <strong>{s.relations}</strong> relations &middot; fingerprint {_code(s.fingerprint)}"
        f" &middot; {_code(s.path)}</div>"
    )


def entity_html(hit: EntityHit, alternatives: list[str]) -> str:
    """Who the entity is: label, key, kind, domains, fact count, description, other entities of that name."""
    bits = [f"<strong style='font-size:1.15em'>{escape(hit.label)}</strong>", _code(hit.key), escape(hit.kind)]
    bits += [escape(", ".join(hit.domains)) or "no domain", f"{hit.facts:,} stored facts"]
    html = " &middot; ".join(bits)
    if hit.description:
        html += f"<div>{escape(hit.description)}</div>"
    if alternatives:
        shown = ", ".join(_code(k) for k in alternatives[:10])
        html += f"<div class='dz-muted'>Also matched: {shown}. Pick one in the search results or type its key.</div>"
    return f"<div class='dz-section'>{html}</div>"


def stored_html(res: EntityFacts) -> str:
    """The entity's stored facts: each sentence, with the triple it comes from in small print."""
    if not res.facts:
        return _section("Stored facts", "<p class='dz-muted'>None.</p>")
    items = "".join(
        f"<li style='padding-left:1em;text-indent:-1em'>&#8226; {escape(f.text)}"
        f" <span class='dz-muted' style='font-size:0.8em'>{_code(f.ref)}</span></li>"
        for f in res.facts
    )
    more = f" (first {len(res.facts)} of {res.entity.facts:,})" if res.truncated else f" ({len(res.facts)})"
    return _section(f"Stored facts{more}", f"<ul class='dz-claims'>{items}</ul>")


def derived_html(res: DerivedFacts) -> str:
    """Facts that hold by the rules but are not stored, each with its collapsible proof."""
    title = f"Derived facts ({len(res.facts)}{', more exist' if res.truncated else ''})"
    if not res.facts:
        return _section(title, "<p class='dz-muted'>None: no rule adds a fact about this entity.</p>")
    note = "<p class='dz-muted'>Not stored, but they follow from the stored facts; open one to see its proof.</p>"
    cards = "".join(f"<div class='dz-proof-card'>{proof_html(f.proof, open_levels=0)}</div>" for f in res.facts)
    return _section(title, note + cards)


def prove_html(res: ProveResponse) -> str:
    """A proof result: status chip, how the names were read, and the proof tree."""
    status = str(res.status)
    head = f"{_chip(status, status)} relation read as {_code(res.relation)}"
    for label, keys in (("Subject", res.subject_candidates), ("Object", res.object_candidates)):
        if len(keys) > 1:  # say which entities an ambiguous name was tried as
            shown = ", ".join(_code(k) for k in keys[:8]) + (" ..." if len(keys) > 8 else "")
            head += f"<div class='dz-muted'>{label} matched {len(keys)} entities, all tried: {shown}</div>"
    if res.proof is None:
        why = "the KB neither proves nor refutes it (a missing fact is not a refutation)."
        return f"<div class='dz-section'>{head}<p class='dz-muted'>No proof: {why}</p></div>"
    return (
        f"<div class='dz-section'>{head}<div class='dz-proof-card'>{proof_html(res.proof, open_levels=3)}</div></div>"
    )


def load_html(res: LoadResult) -> str:
    """What a load did, in one paragraph."""
    name = escape(Path(res.file).name)
    return (
        f"<div class='dz-section'>Loaded <strong>{name}</strong> ({escape(res.format)}, domain {escape(res.domain)}):"
        f" <strong>{res.accepted:,}</strong> rows accepted, <strong>{res.new_triples:,}</strong> new triples,"
        f" <strong>{res.rejected:,}</strong> rejected. Proofs now use the new facts; fingerprint"
        f" {_code(res.fingerprint)}.{_relations(res)}</div>"
    )


def _relations(res: LoadResult) -> str:
    """What the load declared, and the relations the data uses that nothing declares."""
    out = ""
    if res.declared:
        out += f" Declared: {escape(', '.join(res.declared))}."
    if res.undeclared:
        out += (
            f" <strong>Undeclared</strong> (wording from the name, no logic; declare them in a relations file):"
            f" {escape(', '.join(res.undeclared))}."
        )
    return out


__all__ = ["derived_html", "entity_html", "load_html", "prove_html", "stats_html", "stored_html"]
