"""`drowzee generate`: test cases with provable ground truth (Drowzee QA, temporal, FactCHD, ERBench)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer

from drowzee_core.cli.output import JsonOpt, KbOpt, emit_json, err, fail, load_reasoner, progress
from drowzee_core.cli.temporal import FactsOpt, HorizonOpt, load_events
from drowzee_core.errors import DrowzeeError
from drowzee_core.generate.splits import SPLITS, SplitPlan
from drowzee_core.logic.temporal import DEFAULT_HORIZON
from drowzee_core.records.enums import Grounding
from drowzee_core.records.jsonl import counts, write_jsonl

generate_app = typer.Typer(
    help="Generate test cases with provable ground truth, as JSONL (counts on stderr).", no_args_is_help=True
)

NOpt = Annotated[int, typer.Option("--n", min=1, max=1_000_000, help="Number of cases.")]
OutOpt = Annotated[Path, typer.Option("--out", dir_okay=False, help="Output JSONL file (written atomically).")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Random seed: the same seed and data give the same cases.")]
SplitOpt = Annotated[
    str | None,
    typer.Option("--split", help=f"Keep only cases of this split ({', '.join(SPLITS)}); splits are by entity."),
]
SplitSeedOpt = Annotated[int, typer.Option("--split-seed", help="Seed of the entity -> split assignment.")]
DomainOpt = Annotated[list[str] | None, typer.Option("--domain", help="Only these KB domains (repeatable).")]
RulesOpt = Annotated[list[str] | None, typer.Option("--rules", help="Only these rule families (repeatable).")]


def _finish(
    cases: list[dict[str, Any]],
    out: Path,
    keys: tuple[str, ...],
    seconds: float,
    as_json: bool,
    extra: dict[str, Any] | None = None,
) -> None:
    n = write_jsonl(cases, out)
    summary = {"cases": n, "out": str(out), "seconds": round(seconds, 2), **counts(cases, keys), **(extra or {})}
    if as_json:
        emit_json(summary)
        return
    for key, value in (extra or {}).items():
        err.print(f"{key}: {value}", markup=False, soft_wrap=True)
    for key in keys:
        err.print(f"{key}: " + ", ".join(f"{k} {v}" for k, v in summary[key].items()), markup=False, soft_wrap=True)
    err.print(f"wrote {n} cases to {out} in {seconds:.1f}s", markup=False)


@generate_app.command("drowzee-qa")
def drowzee_qa(
    n: NOpt,
    out: OutOpt,
    seed: SeedOpt = 0,
    split: SplitOpt = None,
    split_seed: SplitSeedOpt = 0,
    domain: DomainOpt = None,
    rules: RulesOpt = None,
    kb: KbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Yes/no questions from facts derived by the rule families, with proofs and gold reasoning.

    Rules: symmetric, inverse, transitive, composite, negation.
    """
    from drowzee_core.generate.drowzee_qa import FAMILIES, DrowzeeQAConfig, DrowzeeQAGenerator

    t0 = time.perf_counter()
    try:
        cfg = DrowzeeQAConfig(
            n=n,
            seed=seed,
            families=tuple(rules or FAMILIES),
            domains=tuple(domain) if domain else None,
            split=split,
            plan=SplitPlan(split_seed),
        )
        gen = DrowzeeQAGenerator(load_reasoner(kb))
        with progress() as prog:
            task = prog.add_task("generating", total=n)
            cases = gen.generate(cfg, progress=lambda k: prog.update(task, completed=k))
    except DrowzeeError as exc:
        raise fail(exc) from exc
    _finish(cases, out, ("rule", "rule_detail", "domain", "answer", "form", "split"), time.perf_counter() - t0, as_json)


@generate_app.command("temporal")
def temporal(
    n: NOpt,
    out: OutOpt,
    seed: SeedOpt = 0,
    split: SplitOpt = None,
    split_seed: SplitSeedOpt = 0,
    rules: Annotated[
        list[str] | None,
        typer.Option(
            "--rules", help="Top-level MTL operators (repeatable): Finally Globally Next Until Neg Conj Disj."
        ),
    ] = None,
    facts: FactsOpt = None,
    kb: KbOpt = None,
    horizon: HorizonOpt = DEFAULT_HORIZON,
    max_depth: Annotated[int, typer.Option("--max-depth", help="Operator nesting depth (1-6).")] = 2,
    as_json: JsonOpt = False,
) -> None:
    """Temporal yes/no questions (MTL over year intervals) in the Drowzee QA record format."""
    from drowzee_core.generate.splits import check_split
    from drowzee_core.generate.temporal_qa import TOP_OPERATORS, TemporalQAConfig, generate_temporal_records

    t0 = time.perf_counter()
    try:
        check_split(split)
        cfg = TemporalQAConfig(n=n, seed=seed, operators=tuple(rules or TOP_OPERATORS), max_depth=max_depth)
        table = load_events(facts, kb, horizon[1])
        with progress() as prog:
            task = prog.add_task("generating", total=n)
            cases = generate_temporal_records(
                table, horizon, cfg, SplitPlan(split_seed), split, progress=lambda k: prog.update(task, completed=k)
            )
    except DrowzeeError as exc:
        raise fail(exc) from exc
    _finish(cases, out, ("rule", "depth", "domain", "answer", "split"), time.perf_counter() - t0, as_json)


@generate_app.command("factchd")
def factchd(
    n: NOpt,
    out: OutOpt,
    seed: SeedOpt = 0,
    split: SplitOpt = None,
    split_seed: SplitSeedOpt = 0,
    domain: DomainOpt = None,
    rules: Annotated[
        list[str] | None,
        typer.Option("--rules", help="Patterns (repeatable): vanilla multi_hop comparison set_operation."),
    ] = None,
    dedupe: Annotated[
        float,
        typer.Option(
            "--dedupe",
            min=0.0,
            max=1.0,
            help="Drop queries whose embedding cosine with an earlier one is >= this; 0 keeps all.",
        ),
    ] = 0.95,
    grounding: Annotated[
        Grounding | None,
        typer.Option("--grounding", help="Keep only pairs whose label is grounded this way (proved, ...)."),
    ] = None,
    kb: KbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """FactCHD Query-Response pairs (FACTUAL / NON-FACTUAL) with evidence chains and gold explanations."""
    from drowzee_core.generate.dedupe import deduper
    from drowzee_core.generate.factchd import PATTERNS, FactCHDConfig, FactCHDGenerator, grounding_shares, to_rows

    t0 = time.perf_counter()
    try:
        cfg = FactCHDConfig(
            n=n,
            seed=seed,
            patterns=tuple(rules or PATTERNS),
            domains=tuple(domain) if domain else None,
            split=split,
            plan=SplitPlan(split_seed),
            grounding=grounding,
        )
        drop = None
        if dedupe > 0:
            from drowzee_core.llm.embeddings import SentenceEmbedder

            drop = deduper(SentenceEmbedder().encode, dedupe)
        gen = FactCHDGenerator.from_reasoner(load_reasoner(kb))
        with progress() as prog:
            task = prog.add_task("generating candidates", total=int(n * cfg.oversample) + len(cfg.patterns))
            pairs = gen.generate(cfg, dedupe=drop, progress=lambda k: prog.update(task, completed=k))
    except DrowzeeError as exc:
        raise fail(exc) from exc
    _finish(
        to_rows(pairs),
        out,
        ("category", "label", "corruption", "grounding", "domain", "split"),
        time.perf_counter() - t0,
        as_json,
        {"dedupe": gen.stats, "grounding_shares": grounding_shares(pairs)},
    )


@generate_app.command("erbench")
def erbench(
    n: NOpt,
    out: OutOpt,
    schema: Annotated[
        Path,
        typer.Option(
            "--schema",
            exists=True,
            dir_okay=False,
            help="Schema file (TOML): tables, FDs, FKs; see docs/erbench/movie.toml.",
        ),
    ],
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            exists=True,
            file_okay=False,
            help="Folder that the schema's file names are relative to (default: the schema's folder).",
        ),
    ] = None,
    seed: SeedOpt = 0,
    split: SplitOpt = None,
    split_seed: SplitSeedOpt = 0,
    rules: Annotated[
        list[str] | None,
        typer.Option("--rules", help="Question types (repeatable): binary negated multiple_choice multi_hop."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """ERBench questions from a relational database's functional dependencies and foreign keys."""
    from drowzee_core.generate.erbench import QUESTION_TYPES, ERBenchConfig, ERBenchGenerator, load_schema

    t0 = time.perf_counter()
    try:
        cfg = ERBenchConfig(
            n=n, seed=seed, types=tuple(rules or QUESTION_TYPES), split=split, plan=SplitPlan(split_seed)
        )
        gen = ERBenchGenerator(load_schema(schema), data or schema.parent)
        cases = gen.generate(cfg)
    except DrowzeeError as exc:
        raise fail(exc) from exc
    _finish(cases, out, ("question_type", "answer", "table", "split"), time.perf_counter() - t0, as_json, gen.summary())
