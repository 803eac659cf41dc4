"""ERBench-style questions from a relational database described by a small schema file.

The schema (TOML) names tables over CSV files or SQLite tables, renames their columns, declares
functional dependencies (FDs) with question templates and foreign keys (FKs) for multi-hop joins:

    [[table]]
    name = "movie"
    csv = "movie_df.csv"                 # or: sqlite = "db.sqlite", source = "movies"
    columns = { title = "common_entity", year = "entity3", director = "entity2", star = "entity1" }
    integers = ["year"]

    [[fd]]
    table = "movie"
    lhs = ["director", "star", "year"]
    rhs = "title"
    basic = "Is there a movie, released in {year}, starring {star} where {director} is the director?"
    negated = "Is it true that there are no movies, released in {year}, ... where {director} is the director?"
    statement = "{title} was released in {year}, starring {star}, directed by {director}."

    [[fk]]
    table = "movie"
    column = "director"
    references = "director"              # a table whose `key` column holds the value
    multi_hop = "Is there a movie, released in {year}, starring {star}, whose director was born in ..."
                                         # ... {director.birth_year}?" (a column of the referenced table)

Question types: `binary` (basic, answer Yes), `negated` (answer No), `multiple_choice` (which
statement is false: one option is perturbed so the FD makes it false; a share of questions has none,
and the answer is "None of the above") and `multi_hop` (through an FK; Yes for the real value, No for
a value that no joined row has). Every case records the FD-inferred values a correct rationale must
name (`fd_values`). Rows that break a declared FD are left out and counted.
"""

from __future__ import annotations

import logging
import random
import string
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drowzee_core.errors import DrowzeeError
from drowzee_core.generate.erbench_schema import FDSpec, FKSpec, Schema, load_schema, read_table
from drowzee_core.generate.request import check_request, check_share
from drowzee_core.generate.splits import SplitPlan
from drowzee_core.records.cases import ERBenchFD, ERBenchJoin, ERBenchQuestion, ERBenchQuestionType
from drowzee_core.records.enums import Split
from prompts import render

__all__ = ["QUESTION_TYPES", "ERBenchConfig", "ERBenchGenerator", "answer_counts", "load_schema"]

log = logging.getLogger(__name__)

QUESTION_TYPES: tuple[str, ...] = ("binary", "negated", "multiple_choice", "multi_hop")
LETTERS = "ABCD"


@dataclass(frozen=True, slots=True)
class ERBenchConfig:
    """What to generate; validated at construction."""

    n: int
    seed: int = 0
    types: tuple[str, ...] = QUESTION_TYPES
    split: str | None = None
    plan: SplitPlan = field(default_factory=SplitPlan)
    none_share: float = 0.2
    """Share of multiple-choice questions whose answer is "None of the above"."""

    def __post_init__(self) -> None:
        check_request(self.n, self.types, QUESTION_TYPES, "question types", self.split)
        check_share("none_share", self.none_share)


@dataclass(slots=True)
class _FDData:
    fd: FDSpec
    rows: list[dict[str, str]]
    index: dict[tuple[str, ...], str]
    violations: int


class ERBenchGenerator:
    """Loads a schema's tables once and generates questions from its FDs and FKs."""

    def __init__(self, schema: Schema, base: Path) -> None:
        self.schema = schema
        self.tables = {t.name: read_table(t, base) for t in schema.table}
        self.specs = {t.name: t for t in schema.table}
        self.fds: list[_FDData] = []
        for fd in schema.fd:
            groups: dict[tuple[str, ...], set[str]] = defaultdict(set)
            for row in self.tables[fd.table]:
                groups[tuple(row[c] for c in fd.lhs)].add(row[fd.rhs])
            good = {k: next(iter(v)) for k, v in groups.items() if len(v) == 1}
            rows = [r for r in self.tables[fd.table] if tuple(r[c] for c in fd.lhs) in good]
            bad = len(self.tables[fd.table]) - len(rows)
            if bad:
                log.warning("%s: %d rows break the FD %s -> %s and are left out", fd.table, bad, fd.lhs, fd.rhs)
            self.fds.append(_FDData(fd, _unique_rows(rows), good, bad))
        self.lookup: dict[str, dict[str, dict[str, str]]] = {}
        for t in schema.table:
            if t.key:
                self.lookup[t.name] = {}
                for row in self.tables[t.name]:
                    self.lookup[t.name].setdefault(row[t.key], row)

    def summary(self) -> dict[str, Any]:
        """Rows per table and FD violations (what was left out)."""
        return {
            "rows": {name: len(rows) for name, rows in self.tables.items()},
            "fd_violations": {f"{d.fd.table}: {','.join(d.fd.lhs)} -> {d.fd.rhs}": d.violations for d in self.fds},
        }

    def generate(self, cfg: ERBenchConfig, progress: Callable[[int], None] | None = None) -> list[ERBenchQuestion]:
        """Generate up to `cfg.n` questions, spread evenly over the question types that apply."""
        rng = random.Random(cfg.seed)
        types = [t for t in cfg.types if t != "multi_hop" or self._fks()]
        if not types:
            raise DrowzeeError("multi_hop questions need an [[fk]] whose table has an FD; none in this schema")
        out: list[ERBenchQuestion] = []
        for ti, qtype in enumerate(types):
            want = cfg.n // len(types) + (1 if ti < cfg.n % len(types) else 0)
            made = 0
            for attempt in range(want * 20 + 100):
                if made == want:
                    break
                case = self._make(qtype, rng, attempt, cfg)
                if case is None:
                    continue
                split = cfg.plan.case_split(case.entities)
                case.split = None if split is None else Split(split)
                if cfg.split is not None and split != cfg.split:
                    continue
                case.id = f"erbench-{cfg.seed}-{len(out):06d}"
                out.append(case)
                made += 1
                if progress:
                    progress(len(out))
            if made < want:
                log.warning("%s: %d of %d questions (the tables ran out of usable rows)", qtype, made, want)
        return out

    def _fks(self) -> list[tuple[FKSpec, _FDData]]:
        return [(fk, d) for fk in self.schema.fk for d in self.fds if d.fd.table == fk.table]

    def _make(self, qtype: str, rng: random.Random, i: int, cfg: ERBenchConfig) -> ERBenchQuestion | None:
        if qtype == "multi_hop":
            fk, data = rng.choice(self._fks())
            return self._multi_hop(fk, data, rng, want_yes=i % 2 == 0)
        data = rng.choice(self.fds)
        if not data.rows:
            return None
        fd = data.fd
        if qtype in ("binary", "negated"):
            row = rng.choice(data.rows)
            question = (fd.basic if qtype == "binary" else fd.negated).format(**row)
            return self._case(
                "binary" if qtype == "binary" else "negated",
                fd,
                question,
                "Yes" if qtype == "binary" else "No",
                [row[fd.rhs]],
                row,
                render("erbench_binary", question=question),
                [row[fd.rhs]],
            )
        if len(data.rows) < 5:
            return None
        rows = rng.sample(data.rows, 4)
        none = rng.random() < cfg.none_share
        options = [fd.statement.format(**r) for r in rows]
        perturbed = None
        if not none:
            perturbed = rng.randrange(4)
            row = rows[perturbed]
            others = [r[fd.rhs] for r in data.rows if r[fd.rhs] != row[fd.rhs]]
            options[perturbed] = fd.statement.format(**(row | {fd.rhs: rng.choice(others)}))
        labelled = [f"{LETTERS[k]}. {o}" for k, o in enumerate(options)] + ["E. None of the above"]
        question = "Which one of the following statements is false?"
        answer = "E" if perturbed is None else LETTERS[perturbed]
        case = self._case(
            "multiple_choice",
            fd,
            question,
            answer,
            [r[fd.rhs] for r in rows],
            rows[0],
            render("erbench_mc", question=question, options="\n".join(labelled)),
            [r[fd.rhs] for r in rows],
        )
        case.options = labelled
        case.rows = rows
        case.perturbed_option = None if perturbed is None else LETTERS[perturbed]
        # a correct rationale for the false option names the value the FD gives for its lhs
        case.fd_values = [rows[perturbed][fd.rhs]] if perturbed is not None else [r[fd.rhs] for r in rows]
        return case

    def _multi_hop(self, fk: FKSpec, data: _FDData, rng: random.Random, want_yes: bool) -> ERBenchQuestion | None:
        target = self.lookup[fk.references]
        fd = data.fd
        row = rng.choice(data.rows)
        joined = target.get(row[fk.column])
        if joined is None:
            return None
        values = {**row, **{f"{fk.column}.{k}": v for k, v in joined.items()}}
        if not want_yes:
            # a value of the joined column that no row matching the rest of the question has
            fields = [n for n in _fields(fk.multi_hop) if n.startswith(f"{fk.column}.")]
            if not fields:
                return None
            col = fields[0].split(".", 1)[1]
            rest = [c for c in _fields(fk.multi_hop) if "." not in c]
            matching = {
                target[r[fk.column]][col]
                for r in data.rows
                if all(r[c] == row[c] for c in rest) and r[fk.column] in target
            }
            pool = sorted({v[col] for v in target.values()} - matching)
            if not pool:
                return None
            values[fields[0]] = rng.choice(pool)
        question = _format(fk.multi_hop, values)
        case = self._case(
            "multi_hop",
            fd,
            question,
            "Yes" if want_yes else "No",
            [row[fd.rhs], row[fk.column]],
            row,
            render("erbench_binary", question=question),
            [row[fd.rhs]],
        )
        case.join = ERBenchJoin(column=fk.column, references=fk.references, row=joined)
        return case

    def _case(
        self,
        qtype: ERBenchQuestionType,
        fd: FDSpec,
        question: str,
        answer: str,
        fd_values: list[str],
        row: dict[str, str],
        prompt: str,
        entities: list[str],
    ) -> ERBenchQuestion:
        return ERBenchQuestion(
            id="",
            table=fd.table,
            question_type=qtype,
            question=question,
            answer=answer,
            fd=ERBenchFD(lhs=list(fd.lhs), rhs=fd.rhs),
            fd_values=fd_values,
            row=row,
            entities=[f"{fd.table}:{e}" for e in entities],
            prompt=prompt,
        )


def _unique_rows(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    seen: set[tuple[tuple[str, str], ...]] = set()
    out = []
    for r in rows:
        key = tuple(sorted(r.items()))
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def _fields(template: str) -> list[str]:
    return [name for _l, name, _s, _c in string.Formatter().parse(template) if name]


def _format(template: str, values: dict[str, str]) -> str:
    """str.format with dotted names taken as plain keys ({director.birth_year})."""
    out = []
    for lit, name, _spec, _conv in string.Formatter().parse(template):
        out.append(lit)
        if name:
            out.append(values[name])
    return "".join(out)


def answer_counts(cases: list[ERBenchQuestion]) -> Counter[str]:
    """Answers per question type, for summaries."""
    return Counter(f"{c.question_type}:{c.answer}" for c in cases)
