"""The generators, registered by name: `drowzee generate NAME` and provenance go through `GENERATORS`.

Each generator is a `GeneratorSpec`: a `run(job, resources)` that turns a `GenerateJob` (the options
every generator shares, plus its own) into records, and the fields its summary counts. The producer
name recorded in a sidecar is `generate.<name>`. Generator modules are imported when a generator runs,
so listing the registry stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from drowzee_core.generate.splits import SplitPlan, check_split
from drowzee_core.records.provenance import input_files
from drowzee_core.registry import Registry

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from drowzee_core.logic.events import EventTable
    from drowzee_core.logic.reasoner import Reasoner

Progress = Callable[[int], None]
Encode = Callable[[Sequence[str]], "NDArray[np.float32]"]
"""Texts to unit-length sentence embeddings, one row per text."""


class Resources(Protocol):
    """What a generator may need from its caller: the KB in Prolog, temporal events, an embedder, progress display."""

    def reasoner(self) -> Reasoner:
        """The KB loaded into Prolog."""
        ...

    def events(self, facts: Path | None, open_end: int) -> EventTable:
        """Temporal events from a fact file, or else from the KB (open facts hold through `open_end`)."""
        ...

    def kb_fingerprint(self) -> str:
        """`KBStore.fingerprint()` of the KB."""
        ...

    def track(self, what: str, total: int | None) -> AbstractContextManager[Progress]:
        """A progress display; the callable sets how many of `total` are done."""
        ...

    def encoder(self) -> Encode:
        """A sentence embedder (FactCHD's near-duplicate filter, `dedupe`)."""
        ...


@dataclass(frozen=True, slots=True)
class GenerateJob:
    """One generation request: the options every generator shares, plus its own."""

    n: int
    seed: int = 0
    split: str | None = None
    split_seed: int = 0
    rules: tuple[str, ...] | None = None
    """Rule families / patterns / operators / question types (None: all the generator has)."""
    domains: tuple[str, ...] | None = None
    config: Mapping[str, Any] = field(default_factory=dict)
    """Further fields of the generator's config (e.g. `max_depth`), passed to it as given."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Inputs and settings outside the config (e.g. `facts`, `horizon`, `schema`, `dedupe`)."""


@dataclass(slots=True)
class Generated:
    """What a generator returns: the records, and what the provenance and summary need besides."""

    cases: list[Any]
    kb_fingerprint: str | None = None
    inputs: dict[str, str] = field(default_factory=dict)
    """Input files read (path -> sha256)."""
    summary: dict[str, Any] = field(default_factory=dict)
    """Generator-specific figures shown with the counts (dedupe statistics, table rows...)."""


@dataclass(frozen=True, slots=True)
class GeneratorSpec:
    """A registered generator."""

    run: Callable[[GenerateJob, Resources], Generated]
    count_keys: tuple[str, ...]
    """Fields whose value counts the summary and the sidecar report."""


GENERATORS: Registry[GeneratorSpec] = Registry("generator", prefix="generate")


def _drowzee_qa(job: GenerateJob, res: Resources) -> Generated:
    from drowzee_core.generate.drowzee_qa import FAMILIES, DrowzeeQAConfig, DrowzeeQAGenerator

    cfg = DrowzeeQAConfig(
        n=job.n,
        seed=job.seed,
        families=job.rules or FAMILIES,
        domains=job.domains,
        split=job.split,
        plan=SplitPlan(job.split_seed),
        **job.config,
    )
    reasoner = res.reasoner()
    with res.track("generating", job.n) as done:
        cases = DrowzeeQAGenerator(reasoner).generate(cfg, progress=done)
    return Generated(cases, kb_fingerprint=reasoner.store.fingerprint())


def _temporal(job: GenerateJob, res: Resources) -> Generated:
    from drowzee_core.generate.temporal_qa import TOP_OPERATORS, TemporalQAConfig, generate_temporal_records
    from drowzee_core.logic.temporal import default_horizon

    check_split(job.split)
    cfg = TemporalQAConfig(n=job.n, seed=job.seed, operators=job.rules or TOP_OPERATORS, **job.config)
    facts: Path | None = job.options.get("facts")
    given = job.options.get("horizon")
    lo, hi = given if given is not None else default_horizon(facts is not None)
    horizon = (int(lo), int(hi))
    table = res.events(facts, horizon[1])
    with res.track("generating", job.n) as done:
        cases = generate_temporal_records(table, horizon, cfg, SplitPlan(job.split_seed), job.split, progress=done)
    fingerprint = None if facts is not None else res.kb_fingerprint()
    return Generated(cases, kb_fingerprint=fingerprint, inputs=input_files([facts]))


def _factchd(job: GenerateJob, res: Resources) -> Generated:
    from drowzee_core.generate.dedupe import deduper
    from drowzee_core.generate.factchd import PATTERNS, FactCHDConfig, FactCHDGenerator, grounding_shares, to_rows

    cfg = FactCHDConfig(
        n=job.n,
        seed=job.seed,
        patterns=job.rules or PATTERNS,
        domains=job.domains,
        split=job.split,
        plan=SplitPlan(job.split_seed),
        **job.config,
    )
    threshold = float(job.options.get("dedupe", 0.0))
    drop = None
    if threshold > 0:
        drop = deduper(res.encoder(), threshold)
    reasoner = res.reasoner()
    gen = FactCHDGenerator.from_reasoner(reasoner)
    with res.track("generating candidates", int(job.n * cfg.oversample) + len(cfg.patterns)) as done:
        pairs = gen.generate(cfg, dedupe=drop, progress=done)
    return Generated(
        to_rows(pairs),
        kb_fingerprint=reasoner.store.fingerprint(),
        summary={"dedupe": gen.stats, "grounding_shares": grounding_shares(pairs)},
    )


def _judge(job: GenerateJob, res: Resources) -> Generated:
    from drowzee_core.generate.judge import RECIPES, JudgeConfig, JudgeGenerator

    cfg = JudgeConfig(
        n=job.n, seed=job.seed, recipes=job.rules or RECIPES, split=job.split, plan=SplitPlan(job.split_seed)
    )
    reasoner = res.reasoner()
    gen = JudgeGenerator.from_reasoner(reasoner)
    with res.track("generating", job.n) as done:
        cases = gen.generate(cfg, progress=done)
    return Generated(cases, kb_fingerprint=reasoner.store.fingerprint(), summary={"variants": gen.stats})


def _erbench(job: GenerateJob, res: Resources) -> Generated:
    from drowzee_core.generate.erbench import QUESTION_TYPES, ERBenchConfig, ERBenchGenerator, load_schema

    cfg = ERBenchConfig(
        n=job.n,
        seed=job.seed,
        types=job.rules or QUESTION_TYPES,
        split=job.split,
        plan=SplitPlan(job.split_seed),
        **job.config,
    )
    schema_path: Path = job.options["schema"]
    data: Path = job.options.get("data") or schema_path.parent
    schema = load_schema(schema_path)
    gen = ERBenchGenerator(schema, data)
    with res.track("generating", job.n) as done:
        cases = gen.generate(cfg, progress=done)
    tables = [data / f for t in schema.table for f in (t.csv, t.sqlite) if f is not None]
    return Generated(cases, inputs=input_files([schema_path, *tables]), summary=gen.summary())


GENERATORS.add(
    "drowzee-qa",
    GeneratorSpec(_drowzee_qa, ("rule", "rule_detail", "domain", "answer", "form", "split")),
    "Yes/no questions from facts derived by the rule families (Drowzee), with proofs and gold reasoning.",
)
GENERATORS.add(
    "temporal",
    GeneratorSpec(_temporal, ("rule", "depth", "domain", "answer", "split")),
    "Temporal yes/no questions (MTL over year intervals) in the Drowzee QA record format.",
)
GENERATORS.add(
    "factchd",
    GeneratorSpec(_factchd, ("category", "label", "corruption", "grounding", "domain", "split")),
    "FactCHD Query-Response pairs (FACTUAL / NON-FACTUAL) with evidence chains and gold explanations.",
)
GENERATORS.add(
    "judge",
    GeneratorSpec(_judge, ("recipe", "label", "split")),
    "Grounded-judge examples (query, response, evidence) labelled SUPPORTED / NOT_SUPPORTED by Prolog.",
)
GENERATORS.add(
    "erbench",
    GeneratorSpec(_erbench, ("question_type", "answer", "table", "split")),
    "ERBench questions from a relational database's functional dependencies and foreign keys.",
)

__all__ = ["GENERATORS", "Encode", "GenerateJob", "Generated", "GeneratorSpec", "Progress", "Resources"]
