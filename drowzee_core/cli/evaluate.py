"""`drowzee run-llm`, `drowzee score {drowzee,erbench,factchd}`, `drowzee report`, `drowzee models ...`."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from drowzee_core.cli.output import JsonOpt, emit_json, err, fail, progress
from drowzee_core.config import home
from drowzee_core.errors import DrowzeeError

models_app = typer.Typer(help="The local OpenAI-compatible model server.", no_args_is_help=True)


class Kind(StrEnum):
    """Answer file kinds `drowzee score` reads."""

    DROWZEE = "drowzee"
    ERBENCH = "erbench"
    FACTCHD = "factchd"


OutOpt = Annotated[Path | None, typer.Option("--out", help="Write one judged record per input row (JSONL).")]


def run_llm(
    cases: Annotated[Path, typer.Option("--cases", help="Generated cases (JSONL with `id` and `prompt`).")],
    out: Annotated[Path, typer.Option("--out", help="Answers: the cases plus `llm_answer` and token counts.")],
    role: Annotated[str, typer.Option("--role", help="Model role to send the prompts to.")] = "target",
    model: Annotated[str | None, typer.Option("--model", help="Override the role's model name.")] = None,
    base_url: Annotated[str | None, typer.Option("--base-url", help="Override the role's endpoint.")] = None,
    max_tokens: Annotated[int | None, typer.Option("--max-tokens", min=1, max=32768)] = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout", min=1, max=3600, help="Seconds per call before it is retried, then counted as failed."
        ),
    ] = None,
    roles: Annotated[Path | None, typer.Option("--roles", help="Role config TOML.")] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N cases.")] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64)] = 4,
    as_json: JsonOpt = False,
) -> None:
    """Send each case's prompt to a model role; cached and resumable (re-run to continue)."""
    from drowzee_core.llm.roles import chat_model, load_role
    from drowzee_core.llm.runner import AnswerCache, role_identity, run_cases
    from drowzee_core.oracles.inputs import read_rows

    try:
        rows = read_rows(cases)[:limit]
        cfg = load_role(
            role, {"model": model, "base_url": base_url, "max_tokens": max_tokens, "timeout": timeout}, roles
        )
        client = chat_model(cfg)
        cache = AnswerCache(home() / "cache" / "answers.sqlite")
        identity = role_identity(cfg, client)  # weights of a local adapter + every generation parameter
        with progress() as prog:
            task = prog.add_task(f"{cfg.model}: answering", total=len(rows))
            stats = run_cases(
                rows,
                client,
                identity,
                cfg.model,
                cache,
                out,
                concurrency=concurrency,
                on_batch=lambda n: prog.update(task, advance=n),
            )
        cache.close()
    except DrowzeeError as exc:
        raise fail(exc) from exc
    summary = {k: v for k, v in vars(stats).items() if k != "errors"} | {"errors": stats.errors[:20], "out": str(out)}
    if as_json:
        emit_json(summary)
    else:
        err.print(
            f"{stats.cases} cases: {stats.called} answered now, {stats.cached} from cache, {stats.failed} failed;"
            f" {stats.prompt_tokens} prompt + {stats.completion_tokens} completion tokens;"
            f" {stats.seconds:.1f}s -> {out}"
        )
    if stats.failed:
        raise typer.Exit(1)


def score(
    kind: Annotated[Kind, typer.Argument(help="drowzee, erbench or factchd.")],
    inputs: Annotated[list[Path], typer.Argument(help="Answer files (.json, .jsonl or .csv).")],
    out: OutOpt = None,
    model: Annotated[str | None, typer.Option("--model", help="Model name for rows that have none.")] = None,
    match_threshold: Annotated[float, typer.Option("--match-threshold", min=0.0, max=1.0)] = 0.5,
    extractor: Annotated[
        str, typer.Option("--extractor", help="Response triples (drowzee): spacy, or llm (the `extractor` role).")
    ] = "spacy",
    as_json: JsonOpt = False,
) -> None:
    """Judge answers: Drowzee CO/OL/EI/EK, ERBench A/R/AR/H, FactCHD FactCls/ExpMatch."""
    from drowzee_core.oracles.inputs import read_rows
    from drowzee_core.records.jsonl import write_jsonl

    try:
        rows: list[dict[str, Any]] = []
        for path in inputs:
            rows.extend(r if r.get("model") or not model else r | {"model": model} for r in read_rows(path))
        if extractor not in ("spacy", "llm"):
            raise DrowzeeError(f"--extractor must be spacy or llm, got {extractor!r}")
        judged, summary = _score(kind, rows, match_threshold, extractor)
        if out:
            write_jsonl(judged, out)
    except DrowzeeError as exc:
        raise fail(exc) from exc
    if as_json:
        emit_json(summary)
    else:
        err.print(json.dumps(summary.get("overall", summary.get("all", summary)), indent=1))


def _score(
    kind: Kind,
    rows: list[dict[str, Any]],
    match_threshold: float,
    extractor: str = "spacy",
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    from drowzee_core.oracles import score as sc

    if kind is Kind.ERBENCH:
        return sc.score_erbench(rows)
    if kind is Kind.FACTCHD:
        return sc.score_factchd_rows(rows)
    from drowzee_core.kb.sources.wordnet import load_wordnet
    from drowzee_core.llm.embeddings import SentenceEmbedder
    from drowzee_core.oracles.graph import Equivalence

    try:
        load_wordnet(home())
        wordnet = True
    except (DrowzeeError, OSError, LookupError) as exc:
        err.print(f"[yellow]WordNet unavailable ({exc}); synonyms are not used[/yellow]")
        wordnet = False
    eq = Equivalence(SentenceEmbedder().encode, wordnet=wordnet)
    llm: sc.TripleExtractor | None = None
    if extractor == "llm":
        from drowzee_core.llm.extractor import LLMExtractor
        from drowzee_core.llm.roles import chat_model, load_role

        llm = LLMExtractor(chat_model(load_role("extractor")))
    with progress() as prog:
        task = prog.add_task("scoring", total=len(rows))
        return sc.score_drowzee(
            rows, eq, extractor=llm, match_threshold=match_threshold, progress=lambda n: prog.update(task, advance=n)
        )


def report(
    inputs: Annotated[list[Path], typer.Argument(help="Scored Drowzee rows (from `drowzee score drowzee --out`).")],
    out: Annotated[Path, typer.Option("--out", help="Folder for report.md, report.html and the PNGs.")],
    title: Annotated[str, typer.Option("--title")] = "Hallucination report",
    as_json: JsonOpt = False,
) -> None:
    """Write a Markdown + HTML hallucination report with heatmaps per model x domain / rule."""
    from drowzee_core.oracles.inputs import read_rows
    from drowzee_core.oracles.report import write_report

    try:
        rows = [r for p in inputs for r in read_rows(p)]
        if not rows or "class" not in rows[0]:
            raise DrowzeeError("report needs scored rows: run `drowzee score drowzee ANSWERS --out SCORED.jsonl` first")
        models = write_report(rows, out, title)
    except DrowzeeError as exc:
        raise fail(exc) from exc
    if as_json:
        emit_json({m: s["overall"] for m, s in models.items()} | {"out": str(out)})
    else:
        err.print(f"report for {len(models)} model(s), {len(rows)} rows -> {out / 'report.md'}")


@models_app.command("list")
def models_list(as_json: JsonOpt = False) -> None:
    """The models the local server serves: base models (converted yet?) and LoRA adapters (where from)."""
    from drowzee_core.llm.local import BASE_MODELS, find_adapters
    from drowzee_core.llm.server import healthy

    try:
        adapters = find_adapters()
    except DrowzeeError as exc:
        raise fail(exc) from exc
    rows: list[dict[str, Any]] = [
        {"name": n, "kind": "base", "package": s.package, "converted": (home() / "models" / n / "config.json").exists()}
        for n, s in BASE_MODELS.items()
    ]
    rows += [
        {
            "name": a.name,
            "kind": "adapter",
            "base": a.base,
            "path": str(a.path),
            "metrics": a.manifest.get("metrics", {}),
        }
        for a in adapters.values()
    ]
    if as_json:
        emit_json({"models": rows, "server_up": healthy()})
    else:
        for r in rows:
            where = (
                f"({r['package']})  {'converted' if r['converted'] else 'not converted yet'}"
                if r["kind"] == "base"
                else f"LoRA on {r['base']}  {r['path']}"
            )
            err.print(f"{r['name']}  {where}")
        err.print("server: " + ("up" if healthy() else "not running"))


@models_app.command("serve")
def models_serve(
    port: Annotated[int, typer.Option("--port", min=1024, max=65535)] = 8765,
    adapters: Annotated[list[Path] | None, typer.Option("--adapter", help="Extra adapter folder (repeatable).")] = None,
) -> None:
    """Run the local OpenAI-compatible server in the foreground on 127.0.0.1 (Ctrl-C stops it)."""
    from drowzee_core.llm.server import serve

    try:
        serve(port=port, adapters=adapters)
    except DrowzeeError as exc:
        raise fail(exc) from exc
