"""The Knowledge base tab: KB counts, entity search, an entity's stored and derived facts, prove a claim, load a file.

Every handler does its KB work through `runtime.kb_call` (the verifier's one KB thread; the first call
loads the KB into Prolog). Bad input and failures show as a warning and a readable message in the
panel, never as a crash. The queries are `service/kbview.py` and `kbload.py`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import gradio as gr
from pydantic import ValidationError

from drowzee_core.errors import DrowzeeError, KBMissingError
from service import kbload, kbview
from service.runtime import ProveRequest
from service.ui.kb_html import derived_html, entity_html, load_html, prove_html, stats_html, stored_html
from service.ui.render import error_html

if TYPE_CHECKING:
    from agents.verifier.services import Services
    from service.runtime import Runtime

log = logging.getLogger(__name__)
T = TypeVar("T")

SEARCH_LIMIT, FACTS_LIMIT, DERIVED_LIMIT, SHOWN_ERRORS = 25, 60, 40, 200
RESULT_HEADERS = ["Label", "Key", "Kind", "Domains", "Facts", "Description"]
ERROR_HEADERS = ["File", "Line", "Reason"]
SUFFIX_FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".pl": "prolog", ".json": "wikidata-json"}
NOT_LOADED = "<span class='dz-muted'>The first visit loads the knowledge base into Prolog (up to a minute).</span>"


def _attempt(what: str, fn: Callable[[], T]) -> tuple[T | None, str]:
    """`fn()`, or (None, an error box) after a warning: bad input reads as a message, never a crash."""
    try:
        return fn(), ""
    except (DrowzeeError, ValidationError) as exc:
        message = str(exc)
        if isinstance(exc, KBMissingError):
            message += "; or load a file with “Load a KB file” below in this tab (the first load creates the KB)"
        if isinstance(exc, ValidationError):
            message = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
    except Exception as exc:  # a handler must not crash the page
        log.exception("Knowledge base tab: %s failed", what)
        message = f"{type(exc).__name__}: {exc}"
    gr.Warning(escape(f"{what}: {message}"))
    return None, error_html(f"{what} failed", message)


def relation_choices() -> list[tuple[str, str]]:
    """The bundled catalog's relations (before the KB is loaded; the KB's own list replaces them)."""
    from drowzee_core.kb.catalog import Catalog

    return sorted(((f"{s.label} ({s.name})", s.name) for s in Catalog.from_toml()), key=lambda c: c[0].lower())


def tab(runtime: Runtime) -> None:
    """The Knowledge base tab (elem_ids `kb-*`)."""
    from drowzee_core.logic.kb_formats import LOADERS

    def kb(what: str, fn: Callable[[Services], T]) -> tuple[T | None, str]:
        return _attempt(what, lambda: runtime.kb_call(fn))

    def overview(relation: str | None) -> tuple[str, Any]:
        got, err = kb("Reading the KB", lambda s: (kbview.kb_summary(s), kbview.relation_choices(s)))
        if got is None:
            return err, gr.skip()
        summary, choices = got
        names = {v for _, v in choices}
        return stats_html(summary), gr.update(choices=choices, value=relation if relation in names else "located_in")

    def search(text: str) -> Any:
        hits, _err = kb("Search", lambda s: kbview.search_entities(s, text, SEARCH_LIMIT))
        if hits is None:
            return gr.skip()
        rows = [[h.label, h.key, h.kind, ", ".join(h.domains), h.facts, (h.description or "")[:140]] for h in hits]
        shown = f"First {len(hits)} matches" if len(hits) == SEARCH_LIMIT else f"{len(hits)} matches"
        label = f"{shown} - click one to see its facts" if hits else f"No entity matches {text!r}"
        return gr.update(value=rows, label=label)

    def pick(evt: gr.SelectData) -> Any:
        row = evt.row_value or []
        return row[1] if len(row) > 1 else gr.skip()

    def stored(name: str) -> tuple[str, str, str]:
        res, err = kb("Stored facts", lambda s: kbview.entity_facts(s, name, FACTS_LIMIT))
        if res is None:
            return "", err, ""
        return entity_html(res.entity, res.alternatives), stored_html(res), ""

    def derived(name: str, head: str) -> str:
        if not head:  # the entity was not found: `stored` said why
            return ""
        res, err = kb("Derived facts", lambda s: kbview.derived_facts(s, name, DERIVED_LIMIT))
        return derived_html(res) if res is not None else err

    def prove(subject: str, relation: str | None, obj: str) -> str:
        if not (subject or "").strip() or not (obj or "").strip() or not relation:
            message = "Type a subject and an object (labels or keys, e.g. Paris and Europe) and pick a relation."
            gr.Warning(message)
            return error_html("Nothing to prove", message)
        res, err = _attempt(
            "Prove", lambda: runtime.prove(ProveRequest(subject=subject, relation=relation, object=obj))
        )
        return prove_html(res) if res is not None else err

    def guess(path: str | None, fmt: str) -> str:
        return SUFFIX_FORMATS.get(Path(path).suffix.lower(), fmt) if path else fmt

    def load(
        path: str | None, fmt: str, domain: str, relation: str, declared: str | None, current: str | None
    ) -> tuple[Any, ...]:
        if not path:
            gr.Warning("Choose a KB file to load first.")
            return error_html("No file", "Choose a KB file to load first."), gr.skip(), gr.skip(), gr.skip()
        limit = runtime.settings.max_upload_bytes
        res, err = kb(
            "Loading the file",
            lambda s: kbload.load_kb_file(s, path, fmt, domain, relation=relation, relations=declared, max_bytes=limit),
        )
        if res is None:
            return err, gr.update(value=[], visible=False), gr.skip(), gr.skip()
        rows = [[Path(e.file).name, e.line, e.reason] for e in res.errors[:SHOWN_ERRORS]]
        label = (
            f"Rejected rows (first {len(rows)} of {res.rejected:,})" if res.rejected > len(rows) else "Rejected rows"
        )
        stats, relations = overview(current)
        return load_html(res), gr.update(value=rows, visible=bool(rows), label=label), stats, relations

    with gr.Tab("Knowledge base", id="kb") as kb_tab:
        with gr.Row(equal_height=True):
            stats = gr.HTML(NOT_LOADED, elem_id="kb-stats")
            refresh = gr.Button("Refresh", size="sm", scale=0, min_width=90, elem_id="kb-refresh")
        gr.Markdown("### Find an entity")
        with gr.Row(equal_height=True):
            query = gr.Textbox(
                show_label=False,
                placeholder="Label, alias or key: Paris, Marie Curie, geonames:2988507",
                max_length=kbview.MAX_TEXT_CHARS,
                elem_id="kb-search",
                scale=6,
            )
            go = gr.Button("Search", variant="primary", scale=1, min_width=100, elem_id="kb-search-button")
        results = gr.Dataframe(
            headers=RESULT_HEADERS,
            interactive=False,
            wrap=True,
            max_height=320,
            label="Results",
            column_widths=["15%", "17%", "7%", "15%", "6%", "40%"],
            elem_id="kb-results",
        )
        with gr.Row(equal_height=True):
            entity = gr.Textbox(
                show_label=False,
                placeholder="Entity key or label (or click a search result), then Enter",
                max_length=kbview.MAX_TEXT_CHARS,
                elem_id="kb-entity",
                scale=6,
            )
            show = gr.Button("Show facts", scale=1, min_width=100, elem_id="kb-entity-button")
        head = gr.HTML("", elem_id="kb-entity-head")
        with gr.Row():
            facts = gr.HTML("", elem_id="kb-facts")
            derived_out = gr.HTML("", elem_id="kb-derived")
        with gr.Row():
            with gr.Column():
                gr.Markdown("### Prove a claim")
                with gr.Row():
                    subject = gr.Textbox(
                        label="Subject", placeholder="Paris", max_length=300, elem_id="kb-prove-subject"
                    )
                    relation = gr.Dropdown(
                        relation_choices(),
                        value="located_in",
                        label="Relation",
                        filterable=True,
                        allow_custom_value=True,
                        scale=3,
                        elem_id="kb-prove-relation",
                    )
                    obj = gr.Textbox(
                        label="Object", placeholder="Europe", max_length=300, scale=2, elem_id="kb-prove-object"
                    )
                prove_btn = gr.Button("Prove", variant="primary", elem_id="kb-prove-button")
                proof = gr.HTML("", elem_id="kb-proof")
            with gr.Column():
                gr.Markdown("### Load a KB file")
                upload = gr.File(
                    label="Triples file", file_types=list(SUFFIX_FORMATS), height=120, elem_id="kb-load-file"
                )
                declared = gr.File(
                    label="Relations (optional TOML: each relation's label, templates and logic)",
                    file_types=[".toml"],
                    height=90,
                    elem_id="kb-load-relations",
                )
                with gr.Row():
                    fmt = gr.Dropdown(list(LOADERS.names()), value="csv", label="Format", elem_id="kb-load-format")
                    domain = gr.Textbox(value="general", label="Default domain", elem_id="kb-load-domain")
                    wd_relation = gr.Textbox(
                        label="Wikidata relation", placeholder="wikidata-json only", elem_id="kb-load-relation"
                    )
                with gr.Accordion("File formats", open=False):
                    gr.Markdown(
                        "\n".join(f"- **{k}**: {v}" for k, v in LOADERS.descriptions().items())
                        + "\n\nThe default domain is given to rows that name none. Rows naming an ambiguous label"
                        " get a new entity keyed by that label: give `subject_key` / `object_key` columns to link"
                        " to existing entities."
                    )
                load_btn = gr.Button("Load into the KB", elem_id="kb-load-button")
                with gr.Column(elem_id="kb-load-report"):
                    summary = gr.HTML("", elem_id="kb-load-summary")
                    errors = gr.Dataframe(
                        headers=ERROR_HEADERS,
                        interactive=False,
                        wrap=True,
                        visible=False,
                        max_height=300,
                        label="Rejected rows",
                        column_widths=["32%", "10%", "58%"],
                        elem_id="kb-load-errors",
                    )

        kb_tab.select(overview, [relation], [stats, relation])
        refresh.click(overview, [relation], [stats, relation])
        gr.on([query.submit, go.click], search, [query], [results])
        picked = results.select(pick, None, [entity])
        for first in (
            picked.then(stored, [entity], [head, facts, derived_out]),
            gr.on([entity.submit, show.click], stored, [entity], [head, facts, derived_out]),
        ):
            first.then(derived, [entity, head], [derived_out])
        gr.on([prove_btn.click, subject.submit, obj.submit], prove, [subject, relation, obj], [proof])
        upload.upload(guess, [upload, fmt], [fmt])
        load_btn.click(load, [upload, fmt, domain, wd_relation, declared, relation], [summary, errors, stats, relation])


__all__ = ["relation_choices", "tab"]
