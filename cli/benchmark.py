"""`drowzee benchmark`: the closed loop (generate -> ask -> verify -> score -> report) in one run folder.

The graph is `agents.loop`; this module checks the options, builds the real services (generators over
the --kb file, the target role, the triangulation verifier, the registered scorers) with progress bars
on stderr, runs or resumes the loop, and prints the summary.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from cli.output import JsonOpt, KbOpt, command_params, emit_json, err, fail, table, track
from drowzee_core.errors import DrowzeeError

EVIDENCE = ("none", "facts")


def _config(**values: Any) -> Any:
    """The loop's `LoopConfig`; a bad combination of options is a `DrowzeeError` that says what to change."""
    from agents.loop import LoopConfig

    try:
        return LoopConfig(**values)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        raise DrowzeeError(f"--{'-'.join(map(str, first['loc']))}: {first['msg']}") from None


def _check_out(out: Path, resume: bool) -> None:
    from agents.loop import has_run

    if out.exists() and not out.is_dir():
        raise DrowzeeError(f"--out {out} is a file; the loop writes a folder")
    if has_run(out):
        if not resume:
            raise DrowzeeError(
                f"{out} holds a loop run; pass --resume to finish it (same options) or pick another --out"
            )
    elif out.exists() and any(out.iterdir()):
        raise DrowzeeError(f"--out {out} is not empty and holds no loop run; choose a new or empty folder")


def summary(values: dict[str, Any]) -> dict[str, Any]:
    """The run's summary from its `scores.json`: the target's rate, the verifier's figures, the files."""
    from agents.loop.nodes.score import read_scores

    scores = read_scores(Path(values["scores"].path))
    v = scores["verifier"]
    o = v["overall"]
    return {
        "rows": v["rows"],
        "evaluated": v["evaluated"],
        "no_oracle_label": v["no_oracle_label"],
        "no_verdict": v["no_verdict"],
        "degraded": v["degraded"],
        "hallucination_rate": o["hallucination_rate"],
        "confusion": o["confusion"],
        "verifier": o["verifier"],
        "baselines": o["baselines"],
        "graph_oracle": v["graph_oracle"],
        "answer_level": v.get("answer_level", {}),
        "mitigation": json.loads(Path(values["mitigation"].path).read_text("utf-8"))
        if "mitigation" in values
        else None,
        "answers": values["answers"].counts,
        "report": values["report"].path,
    }


def _ci(f: dict[str, Any] | None) -> str:
    return "-" if f is None else f"{f['value']:.3f} [{f['low']:.3f}, {f['high']:.3f}]"


def _show(data: dict[str, Any]) -> None:
    c = data["confusion"]
    err.print(
        f"{data['rows']} answers, {data['evaluated']} evaluated ({data['no_oracle_label']} without an oracle label,"
        f" {data['no_verdict']} without a verdict, {data['degraded']} degraded);"
        f" target hallucination rate {_ci(data['hallucination_rate'])};"
        f" verifier: {c['tp']} detected, {c['fn']} missed, {c['fp']} false alarms, {c['tn']} passed",
        markup=False,
    )
    if data["verifier"]:
        table(
            f"detection of hallucinated answers ({data['evaluated']} rows; 95 % intervals)",
            ("", "precision", "recall", "F1", "accuracy"),
            [
                (f["name"], *(_ci(f[k]) for k in ("precision", "recall", "f1", "accuracy")))
                for f in [data["verifier"], *data["baselines"]]
            ],
        )
    levels = data.get("answer_level") or {}
    if levels:
        table(
            "agreement with the answer-level label (the Yes / No alone; 95 % intervals)",
            ("rows", "n", "wrong-answer rate", "verifier accuracy", "F1", "always flag", "never flag"),
            [
                (name, b["n"], _ci(b["hallucination_rate"]), _ci(b["verifier"]["accuracy"]), _ci(b["verifier"]["f1"]),
                 f"{b['baselines'][0]['accuracy']['value']:.3f}", f"{b['baselines'][1]['accuracy']['value']:.3f}")
                for name, b in levels.items() if b["verifier"]
            ],
        )  # fmt: skip
    if data.get("mitigation"):
        table(
            f"retrieval patch: {data['mitigation']['patched']} cases re-asked with the verifier's facts",
            ("label", "n", "rate before", "rate after", "difference", "fixed", "broken"),
            [
                (c["label"], c["n"], _ci(c["before"]), _ci(c["after"]), _ci(c["difference"]), c["fixed"], c["broken"])
                for c in data["mitigation"]["changes"]
            ],
        )
    g = data["graph_oracle"]
    err.print(
        f"graph oracle on explanations: {g['rows']} rows, node {g['node_sim']}, edge {g['edge_sim']},"
        f" matching {g['cites_facts']}; report: {data['report']}",
        markup=False,
    )


def benchmark(
    ctx: typer.Context,
    generator: Annotated[str, typer.Option("--generator", help="drowzee-qa, temporal, erbench or factchd.")],
    out: Annotated[Path, typer.Option("--out", help="Run folder: every artefact, the report and the checkpoints.")],
    n: Annotated[int | None, typer.Option("--n", min=1, max=1_000_000, help="Cases to generate.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Generator seed (and of the --limit sample of answers).")] = 0,
    rules: Annotated[list[str] | None, typer.Option("--rules", help="Only these rules (repeatable).")] = None,
    domain: Annotated[list[str] | None, typer.Option("--domain", help="Only these KB domains (repeatable).")] = None,
    schema: Annotated[Path | None, typer.Option("--schema", help="erbench: the schema TOML.")] = None,
    data: Annotated[Path | None, typer.Option("--data", help="erbench: folder of the schema's files.")] = None,
    target: Annotated[str | None, typer.Option("--target", help="Model role to ask (e.g. target).")] = None,
    model: Annotated[str | None, typer.Option("--model", help="Model name to ask at --base-url.")] = None,
    base_url: Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint of --model.")] = None,
    answers: Annotated[
        Path | None,
        typer.Option("--answers", help="Recorded answers: Drowzee's history.json or `drowzee run-llm` JSONL."),
    ] = None,
    evidence: Annotated[
        str, typer.Option("--evidence", help="none, or facts: give the verifier each case's ground-truth facts.")
    ] = "none",
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Only N cases (recorded answers: a seeded sample of N).")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Finish the run in --out (after its last node).")] = False,
    policy: Annotated[str | None, typer.Option("--policy", help="Verdict Manager policy.")] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64, help="Pairs verified at once.")] = 1,
    mitigate: Annotated[
        str, typer.Option("--mitigate", help="none, or rag: re-ask the target with the facts the verifier used.")
    ] = "none",
    kb: KbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run the closed loop: cases -> the target's answers -> verdicts -> oracle scores -> report in --out."""
    from agents.loop import default_context, run_loop
    from agents.verifier.settings import POLICIES
    from cli.generate import CliResources
    from drowzee_core.llm.roles import load_role

    try:
        if evidence not in EVIDENCE:
            raise DrowzeeError(f"--evidence must be none or facts, got {evidence!r}")
        if mitigate not in ("none", "rag"):
            raise DrowzeeError(f"--mitigate must be none or rag, got {mitigate!r}")
        if policy is not None and policy not in POLICIES:
            raise DrowzeeError(f"--policy must be one of {', '.join(POLICIES)}, got {policy!r}")
        if answers is not None and not answers.is_file():
            raise DrowzeeError(f"--answers {answers} is not a file")
        if schema is not None and not schema.is_file():
            raise DrowzeeError(f"--schema {schema} is not a file")
        cfg = _config(
            generator=generator,
            n=n,
            seed=seed,
            rules=tuple(rules) if rules else None,
            domains=tuple(domain) if domain else None,
            schema_path=str(schema) if schema else None,
            data=str(data) if data else None,
            kb=str(kb) if kb else None,
            target=target,
            model=model,
            base_url=base_url,
            answers=str(answers.resolve()) if answers else None,
            evidence=evidence,
            limit=limit,
            policy=policy,
            concurrency=concurrency,
            mitigate=mitigate,
        )
        if target:
            load_role(target)  # an unknown role fails now, not after generation
        _check_out(out, resume)
        context = default_context(out, CliResources(kb), track, command_params(ctx))
        values = run_loop(cfg, context)
        data_out = summary(values)
    except DrowzeeError as exc:
        raise fail(exc) from exc
    if as_json:
        emit_json(data_out)
    else:
        _show(data_out)
