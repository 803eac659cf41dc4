"""The user-pairs data (`tests/data/user_pairs.jsonl`) and the contradicting cases built for the honesty tests."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from drowzee_core.records.enums import Label
from drowzee_core.records.pair import EvidenceItemIn
from drowzee_core.records.verdict import Decision, Verdict

DATA = Path(__file__).resolve().parents[1] / "data" / "user_pairs.jsonl"
FIELDS = {"id", "query", "response", "evidence", "truth", "domain", "in_kb"}
MIN_PAIRS = 48


@dataclass(frozen=True)
class Pair:
    """One row of the data file."""

    id: str
    query: str
    response: str
    evidence: list[EvidenceItemIn] | None
    truth: bool
    domain: str
    in_kb: bool

    @property
    def contradicting(self) -> bool:
        """Whether the supplied evidence contradicts the response (rows with evidence and truth false)."""
        return self.evidence is not None and not self.truth


def _load() -> list[Pair]:
    rows = [json.loads(line) for line in DATA.read_text("utf-8").splitlines() if line.strip()]
    return [
        Pair(
            id=r["id"],
            query=r["query"],
            response=r["response"],
            evidence=r["evidence"],
            truth=r["truth"] == "true",
            domain=r["domain"],
            in_kb=r["in_kb"],
        )
        for r in rows
    ]


PAIRS = _load()


@dataclass(frozen=True)
class Contradiction:
    """A response and one supplied item that contradicts it (the item gets id `S1`)."""

    name: str
    query: str
    response: str
    evidence: str | list[str]


CONTRADICTIONS = [
    Contradiction(
        "birth-year-in-kb",
        "When was Albert Einstein born?",
        "Albert Einstein was born in 1905.",
        "Albert Einstein was born in 1879 in Ulm.",
    ),
    Contradiction(
        "birth-year-unknown-person",
        "When was Zyx Qwert born?",
        "Zyx Qwert was born in 1949.",
        "Zyx Qwert was born in 1950 in Tallinn.",
    ),
    Contradiction(
        "wrong-discoverer",
        "Who discovered uranium?",
        "Uranium was discovered by Marie Curie.",
        "Martin Heinrich Klaproth discovered uranium in 1789.",
    ),
    Contradiction(
        "release-year",
        "When did Jurassic Park come out?",
        "Jurassic Park was released in 1995.",
        "Jurassic Park premiered in cinemas in 1993.",
    ),
    Contradiction(
        "capital-named-in-evidence",
        "What is the capital of Australia?",
        "The capital of Australia is Sydney.",
        "Sydney is the largest city of Australia; the capital of Australia is Canberra.",
    ),
    Contradiction(
        "atomic-number-vs-mass-number",
        "What is the atomic number of iron?",
        "Iron has atomic number 56.",
        "Iron has atomic number 26; its most common isotope has mass number 56.",
    ),
    Contradiction(
        "negated-border",
        "Does Portugal border Spain?",
        "Portugal does not share a border with Spain.",
        "Portugal shares a border with Spain, its only land neighbour.",
    ),
    Contradiction(
        "negated-opening-day",
        "Is the museum open on Mondays?",
        "The museum is open on Mondays.",
        "The museum is not open on Mondays.",
    ),
    Contradiction(
        "triple-names-someone-else",
        "Who is the CEO of Acme Robotics?",
        "Dana Whitfield is the chief executive of Acme Robotics.",
        ["Acme Robotics", "chief executive", "Priya Raman"],
    ),
]


def table(verdicts: dict[str, Verdict]) -> str:
    """Per (in_kb, evidence) group: the count per decision and the label's accuracy against `truth`.

    Accuracy is given apart for the verdicts a proof or the evidence decided (supported / refuted), for
    `unsupported` ones and for the lean of `undecided` ones.
    """
    decisions = list(Decision)
    head = ["in_kb", "evidence", "n", *[d.value for d in decisions], "sup/ref acc", "unsup acc", "lean acc"]
    groups: dict[tuple[bool, bool], list[Pair]] = {}
    for p in PAIRS:
        groups.setdefault((p.in_kb, p.evidence is not None), []).append(p)

    def acc(ps: list[Pair], *among: Decision) -> str:
        ps = [p for p in ps if verdicts[p.id].decision in among]
        right = sum((verdicts[p.id].label == Label.FACTUAL) == p.truth for p in ps)
        return f"{right}/{len(ps)}" if ps else "-"

    lines = []
    for key in [*sorted(groups, reverse=True), None]:
        rows = PAIRS if key is None else groups[key]
        counts = Counter(verdicts[p.id].decision for p in rows)
        name = ("all", "all") if key is None else (str(key[0]), str(key[1]))
        accs = [
            acc(rows, Decision.SUPPORTED, Decision.REFUTED),
            acc(rows, Decision.UNSUPPORTED),
            acc(rows, Decision.UNDECIDED),
        ]
        lines.append([*name, str(len(rows)), *[str(counts[d]) for d in decisions], *accs])
    widths = [max(len(r[i]) for r in [head, *lines]) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [head, *lines])
