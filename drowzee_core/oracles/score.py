"""Score answer files: one judgement per row, plus summary metrics.

- Drowzee (`question, answer, llm_answer` + `evidence` triples, or our records with `facts` /
  `reasoning`): `parsed_answer`, `answer_correct`, graph similarities and `class` (CO / OL / EI / EK).
- ERBench (`question, model_answer, model_reasoning, gold_answer, gold_entity`, or our records with
  `llm_answer` and `fd_values`): `answer_correct`, `rationale_correct` and the metrics A, R, AR, H
  (+ R-ext / AR-ext for multi-hop rows).
- FactCHD (`label, reason, category` + the prediction in `output` / `llm_answer` / `prediction`):
  `parsed_label` and FactCls / ExpMatch / accuracy / macro-F1 per category.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, get_args

from scipy.stats import binomtest

from drowzee_core.errors import DrowzeeError
from drowzee_core.oracles.extract import SpacyExtractor
from drowzee_core.oracles.factchd_metrics import clean, label_of, score_factchd
from drowzee_core.oracles.graph import DEFAULT_MATCH, Equivalence, classify, graph_similarity, semantic_graph
from drowzee_core.oracles.rationale import judge_rationale, rationale_states_all
from drowzee_core.records.answer_text import gold_label, parse_answer
from drowzee_core.records.answered import (
    DrowzeeAnswered,
    ERBenchAnswered,
    ERBenchHumanLabel,
    FactCHDAnswered,
)
from drowzee_core.records.judged import (
    DrowzeeJudgement,
    DrowzeeOutcome,
    ERBenchJudgement,
    FactCHDJudgement,
    HallucinationClass,
    JudgedERBenchRow,
)
from drowzee_core.records.readers import validate_row
from drowzee_core.records.summaries import DrowzeeSummary, ERBenchSummary, FactCHDSummary, HallucinationFigures
from drowzee_core.records.triple import Triple

Progress = Callable[[int], None]


class TripleExtractor(Protocol):
    """Anything that turns reasoning text into triples (spaCy here, an LLM role in `drowzee_core.llm`)."""

    def triples(self, text: str) -> list[Triple]:
        """The triples stated in `text`."""
        ...


def _gold_triples(row: DrowzeeAnswered, extractor: TripleExtractor) -> list[Triple]:
    facts: list[Any] = list(row.evidence if row.evidence is not None else row.facts or [])
    triples = [
        Triple(str(f[0]), str(f[1]).replace("_", " "), str(f[2]))
        for f in facts
        if isinstance(f, list | tuple) and len(f) == 3
    ]
    if not triples and row.kind:  # our temporal records: facts are sentences; add the gold reasoning
        lines = row.reasoning if isinstance(row.reasoning, list) else []
        text = " ".join(str(x) for x in lines)
        triples = extractor.triples(text + " " + " ".join(str(f) for f in facts if isinstance(f, str)))
    return triples


def score_drowzee(
    rows: Iterable[dict[str, Any]],
    eq: Equivalence,
    extractor: TripleExtractor | None = None,
    match_threshold: float = DEFAULT_MATCH,
    progress: Progress | None = None,
) -> tuple[list[dict[str, Any]], DrowzeeSummary]:
    """Judge Drowzee answers; summary = accuracy, hallucination rate, classes, per domain and rule.

    Gold triples come from the records' facts (spaCy for sentence facts); response triples from
    `extractor` (default spaCy). A row whose response the extractor fails on keeps its answer judgement,
    gets `extraction_error` and no class; the summary counts them.
    """
    spacy = SpacyExtractor()
    extractor = extractor or spacy
    out = []
    for i, row in enumerate(rows, 1):
        answered = validate_row(DrowzeeAnswered, row, f"row {i}")
        parsed = parse_answer(answered.llm_answer)
        gold = gold_label(answered.answer)
        refused = parsed.label == "unsure"
        correct = parsed.label is not None and parsed.label == gold
        truth = semantic_graph(_gold_triples(answered, spacy))
        judged: dict[str, Any] = {"parsed_answer": parsed.label, "parse_how": parsed.how, "answer_correct": correct}
        try:
            response = semantic_graph(extractor.triples(answered.llm_answer))
        except DrowzeeError as exc:
            judged["extraction_error"] = str(exc)
        else:
            sim = graph_similarity(response, truth, eq) if truth.number_of_edges() else None
            if sim is not None:
                judged |= {"node_similarity": round(sim.nodes, 4), "edge_similarity": round(sim.edges, 4)}
            judged["class"] = classify(correct, refused, sim, match_threshold)
        out.append(DrowzeeJudgement.model_validate(judged).flat(row))
        if progress:
            progress(1)
    return out, summarize_drowzee(out)


def group_key(row: Mapping[str, Any], *names: str) -> str:
    """The first non-empty field of `names` (e.g. domain, else category), else "unknown"."""
    for n in names:
        if row.get(n):
            return str(row[n])
    return "unknown"


def summarize_drowzee(rows: Sequence[Mapping[str, Any]]) -> DrowzeeSummary:
    """Accuracy, hallucination rate (class != CO), class counts; overall, per domain, per rule.

    Every figure is over the *parsed* answers (a yes / no / unsure found); unparsed answers are only
    counted (`unparsed`), never taken as hallucinations. Rows whose reasoning the extractor failed on
    have no class: they count for accuracy but not for the rate or the classes (`extraction_errors`).
    The hallucination rate comes with its 95 % Wilson interval. `rows` are judged rows as written (the
    judgement beside the answered row's fields); each must have what `DrowzeeOutcome` reads.
    """
    judged = [validate_row(DrowzeeOutcome, dict(r), f"judged row {i}") for i, r in enumerate(rows, 1)]

    def block(group: Sequence[DrowzeeOutcome]) -> HallucinationFigures:
        parsed = [r for r in group if r.parsed_answer is not None]
        classes = Counter(r.hallucination_class for r in parsed)
        classed = len(parsed) - classes[None]
        hallucinated = classed - classes["CO"]
        return HallucinationFigures(
            n=len(group),
            parsed=len(parsed),
            unparsed=len(group) - len(parsed),
            answer_accuracy=round(sum(r.answer_correct for r in parsed) / len(parsed), 4) if parsed else 0.0,
            hallucination_rate=round(hallucinated / classed, 4) if classed else 0.0,
            hallucination_rate_ci95=_wilson(hallucinated, classed),
            extraction_errors=classes[None],
            refused=sum(r.parsed_answer == "unsure" for r in parsed),
            classes={c: classes[c] for c in get_args(HallucinationClass)},
        )

    by_domain: dict[str, list[DrowzeeOutcome]] = defaultdict(list)
    by_rule: dict[str, list[DrowzeeOutcome]] = defaultdict(list)
    for raw, r in zip(rows, judged, strict=True):
        by_domain[group_key(raw, "domain", "category")].append(r)
        by_rule[group_key(raw, "rule", "operator", "reasoning")].append(r)
    return DrowzeeSummary(
        models=sorted({str(r.get("model", "")) for r in rows} - {""}),
        overall=block(judged),
        by_domain={k: block(v) for k, v in sorted(by_domain.items())},
        by_rule={k: block(v) for k, v in sorted(by_rule.items())},
    )


def _wilson(k: int, n: int) -> list[float] | None:
    """The 95 % Wilson score interval of k successes in n trials (None when n is 0)."""
    if not n:
        return None
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return [round(float(ci.low), 4), round(float(ci.high), 4)]


def score_erbench(rows: Iterable[dict[str, Any]]) -> tuple[list[dict[str, Any]], ERBenchSummary]:
    """Judge ERBench answers and rationales; summary = A, R, AR, H (+ R-ext / AR-ext), rationale baseline."""
    out = []
    for i, row in enumerate(rows, 1):
        hop = ""
        if "model_answer" in row:
            human = validate_row(ERBenchHumanLabel, row, f"row {i}")
            question, answer, reasoning = human.question, parse_answer(human.model_answer).label, human.model_reasoning
            gold, entities = gold_label(human.gold_answer), [human.gold_entity]
        else:
            ours = validate_row(ERBenchAnswered, row, f"row {i}")
            question, answer, reasoning = ours.question, parse_answer(ours.llm_answer).label, ours.llm_answer
            gold, entities = gold_label(ours.answer), ours.fd_values
            if ours.join is not None:
                hop = (ours.row or {}).get(ours.join.column, "")
        judgement = judge_rationale(reasoning, entities[0], question) if entities else None
        ext = rationale_states_all(reasoning, [entities[0], hop], question) if hop and entities else None
        judged = ERBenchJudgement(
            parsed_answer=answer,
            answer_correct=answer is not None and answer == gold,
            rationale_correct=bool(judgement and judgement.correct),
            rationale_mentions=list(judgement.mentions) if judgement else [],
            rationale_denied=list(judgement.denied) if judgement else [],
            rationale_ext_correct=ext,
        )
        out.append(judged.flat(row))
    return out, summarize_erbench(out)


def summarize_erbench(rows: Sequence[Mapping[str, Any]]) -> ERBenchSummary:
    """ERBench's A, R, AR, H = 1 - A - missing (missing = "unsure"); R-ext / AR-ext over multi-hop rows."""
    judged = [validate_row(JudgedERBenchRow, dict(r), f"judged row {i}") for i, r in enumerate(rows, 1)]
    n = len(judged)
    if not n:
        return ERBenchSummary(n=0)
    a = sum(r.answer_correct for r in judged) / n
    missing = sum(r.parsed_answer == "unsure" for r in judged) / n
    hops = [r for r in judged if r.rationale_ext_correct is not None]
    both = sum(bool(r.rationale_ext_correct) and r.answer_correct for r in hops)
    return ERBenchSummary(
        n=n,
        A=round(a, 4),
        R=round(sum(r.rationale_correct for r in judged) / n, 4),
        AR=round(sum(r.answer_correct and r.rationale_correct for r in judged) / n, 4),
        H=round(1 - a - missing, 4),
        missing=round(missing, 4),
        unparsed=sum(r.parsed_answer is None for r in judged),
        R_ext=round(sum(bool(r.rationale_ext_correct) for r in hops) / len(hops), 4) if hops else None,
        AR_ext=round(both / len(hops), 4) if hops else None,
    )


def factchd_gold(row: dict[str, Any] | FactCHDAnswered) -> str:
    """The gold explanation: `reason` when it starts with its label (FactCHD's and ours do), else both."""
    label, reason = (str(row["label"]), str(row["reason"])) if isinstance(row, dict) else (row.label, row.reason)
    return reason if label_of(clean(reason)) else f"{label}. {reason}"


def score_factchd_rows(
    rows: Iterable[dict[str, Any]],
    group: str = "category",
) -> tuple[list[dict[str, Any]], FactCHDSummary]:
    """Judge FactCHD predictions against `label` + `reason`.

    The summary has the overall report (every row once), the reports per value of field `group` (a
    value may itself be "all"), and the field's name.
    """
    rows = list(rows)
    triples = []
    for i, row in enumerate(rows, 1):
        pair = validate_row(FactCHDAnswered, row, f"row {i}")
        triples.append((str(row.get(group, "")), str(pair.predicted), factchd_gold(pair)))
    judged, summary = score_factchd(triples)
    flat = [FactCHDJudgement.model_validate(j).flat(r) for r, j in zip(rows, judged, strict=True)]
    return flat, summary.model_copy(update={"group_by": group})
