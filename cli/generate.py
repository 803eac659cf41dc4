"""`drowzee generate NAME`: test cases with provable ground truth, dispatched through `GENERATORS`.

Each command turns its options into a `GenerateJob` and runs the registered generator; the cases are
written as JSONL with a sidecar `OUT.meta.json` (producer `generate.NAME`, the options, seed, KB
fingerprint, input files, counts).
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.output import JsonOpt, KbOpt, command_params, emit_json, err, fail, kb_fingerprint, track
from cli.output import load_reasoner as _load_reasoner
from cli.temporal import FactsOpt, HorizonOpt, load_events
from drowzee_core.config import default_kb_path
from drowzee_core.errors import DrowzeeError
from drowzee_core.generate.factchd import Style
from drowzee_core.generate.registry import GENERATORS, Encode, GenerateJob, Progress
from drowzee_core.generate.splits import SPLITS
from drowzee_core.records.enums import Grounding
from drowzee_core.records.jsonl import counts, write_jsonl
from drowzee_core.records.provenance import provenance

if TYPE_CHECKING:
    from drowzee_core.logic.events import EventTable
    from drowzee_core.logic.reasoner import Reasoner

generate_app = typer.Typer(
    help="Generate test cases with provable ground truth, as JSONL (counts on stderr).", no_args_is_help=True
)

NOpt = Annotated[int, typer.Option("--n", min=1, max=1_000_000, help="Number of cases.")]
OutOpt = Annotated[
    Path, typer.Option("--out", dir_okay=False, help="Output JSONL file (written atomically, with OUT.meta.json).")
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Random seed: the same seed and data give the same cases.")]
SplitOpt = Annotated[
    str | None,
    typer.Option("--split", help=f"Keep only cases of this split ({', '.join(SPLITS)}); splits are by entity."),
]
SplitSeedOpt = Annotated[int, typer.Option("--split-seed", help="Seed of the entity -> split assignment.")]
DomainOpt = Annotated[list[str] | None, typer.Option("--domain", help="Only these KB domains (repeatable).")]
RulesOpt = Annotated[list[str] | None, typer.Option("--rules", help="Only these rule families (repeatable).")]


@dataclass(frozen=True, slots=True)
class CliResources:
    """`Resources` for generators run from the command line: the --kb file, progress bars on stderr."""

    kb: Path | None

    def reasoner(self) -> Reasoner:
        """The KB loaded into Prolog (with a progress bar)."""
        return _load_reasoner(self.kb)

    def events(self, facts: Path | None, open_end: int) -> EventTable:
        """Temporal events from `facts`, or else from the KB."""
        return load_events(facts, self.kb, open_end)

    def kb_fingerprint(self) -> str:
        """`KBStore.fingerprint()` of the KB."""
        return kb_fingerprint(self.kb)

    def track(self, what: str, total: int | None) -> AbstractContextManager[Progress]:
        """A progress bar on stderr."""
        return track(what, total)

    def encoder(self) -> Encode:
        """The packaged MiniLM sentence embedder."""
        from drowzee_core.llm.embeddings import embedder

        return embedder().encode


def _run(ctx: typer.Context, name: str, job: GenerateJob, out: Path, kb: Path | None, as_json: bool) -> None:
    """Run generator `name`, write its cases with their sidecar, print the summary."""
    entry = GENERATORS.entry(name)
    t0 = time.perf_counter()
    try:
        got = entry.value.run(job, CliResources(kb))
    except DrowzeeError as exc:
        raise fail(exc) from exc
    seconds = time.perf_counter() - t0
    keys = entry.value.count_keys
    tallies = counts(got.cases, keys)
    resolved: dict[str, Any] = {"kb": kb or default_kb_path()} if got.kb_fingerprint else {}
    meta = provenance(
        entry.producer,
        command_params(ctx, **resolved),
        seed=job.seed,
        kb_fingerprint=got.kb_fingerprint,
        inputs=got.inputs,
        counts=tallies | ({"generator": got.summary} if got.summary else {}),
    )
    n = write_jsonl(got.cases, out, meta)
    summary = {"cases": n, "out": str(out), "seconds": round(seconds, 2), **tallies, **got.summary}
    if as_json:
        emit_json(summary)
        return
    for key, value in got.summary.items():
        err.print(f"{key}: {value}", markup=False, soft_wrap=True)
    for key in keys:
        err.print(f"{key}: " + ", ".join(f"{k} {v}" for k, v in tallies[key].items()), markup=False, soft_wrap=True)
    err.print(f"wrote {n} cases to {out} in {seconds:.1f}s", markup=False)


def _tuple(values: list[str] | None) -> tuple[str, ...] | None:
    return tuple(values) if values else None


@generate_app.command("drowzee-qa", help=GENERATORS.entry("drowzee-qa").description)
def drowzee_qa(
    ctx: typer.Context,
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
    """Rules: symmetric, inverse, transitive, composite, negation."""
    job = GenerateJob(n, seed, split, split_seed, _tuple(rules), _tuple(domain))
    _run(ctx, "drowzee-qa", job, out, kb, as_json)


@generate_app.command("temporal", help=GENERATORS.entry("temporal").description)
def temporal(
    ctx: typer.Context,
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
    horizon: HorizonOpt = None,
    max_depth: Annotated[int, typer.Option("--max-depth", help="Operator nesting depth (1-6).")] = 2,
    as_json: JsonOpt = False,
) -> None:
    """Events come from --facts, or else from the KB's facts with years."""
    job = GenerateJob(
        n,
        seed,
        split,
        split_seed,
        _tuple(rules),
        config={"max_depth": max_depth},
        options={"facts": facts, "horizon": horizon},
    )
    _run(ctx, "temporal", job, out, kb, as_json)


@generate_app.command("factchd", help=GENERATORS.entry("factchd").description)
def factchd(
    ctx: typer.Context,
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
    style: Annotated[
        Style,
        typer.Option(
            "--style",
            help="Response wording: the catalog's templates, or natural (the same pairs and labels, re-worded).",
        ),
    ] = Style.TEMPLATE,
    kb: KbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Patterns: vanilla, multi_hop, comparison, set_operation."""
    job = GenerateJob(
        n,
        seed,
        split,
        split_seed,
        _tuple(rules),
        _tuple(domain),
        config={"grounding": grounding, "style": style.value},
        options={"dedupe": dedupe},
    )
    _run(ctx, "factchd", job, out, kb, as_json)


@generate_app.command("judge", help=GENERATORS.entry("judge").description)
def judge(
    ctx: typer.Context,
    n: NOpt,
    out: OutOpt,
    seed: SeedOpt = 0,
    split: SplitOpt = None,
    split_seed: SplitSeedOpt = 0,
    rules: Annotated[
        list[str] | None,
        typer.Option("--rules", help="Recipes (repeatable); see docs/judge_data.md."),
    ] = None,
    kb: KbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Recipes: wrong_entity, wrong_number, negation, swap, wrong_relation, multi_claim, contrast, ..."""
    job = GenerateJob(n, seed, split, split_seed, _tuple(rules))
    _run(ctx, "judge", job, out, kb, as_json)


@generate_app.command("erbench", help=GENERATORS.entry("erbench").description)
def erbench(
    ctx: typer.Context,
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
    """Question types: binary, negated, multiple_choice, multi_hop."""
    job = GenerateJob(n, seed, split, split_seed, _tuple(rules), options={"schema": schema, "data": data})
    _run(ctx, "erbench", job, out, None, as_json)
