from pathlib import Path

import pytest

from drowzee_core.oracles.extract import knowledge_points
from drowzee_core.oracles.factchd_metrics import (
    exp_match,
    exp_match_parts,
    rouge_l_recall,
    score_factchd,
    split_response,
)
from drowzee_core.oracles.graph import Equivalence, GraphSimilarity, classify, graph_similarity, semantic_graph
from drowzee_core.oracles.rationale import judge_rationale, substring_baseline
from drowzee_core.records.answer_text import parse_answer
from drowzee_core.records.triple import Triple


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("\n    Answer:\n    Yes, because both are years.", "yes"),
        (' Sure! Here is my answer to the question "Is X Y?"\n\nNO, because X is not Y.', "no"),
        (" Sure! Here is my answer:\n\nNo, it is not possible for A to be B.", "no"),
        ("Yes, it is true that there are no movies by him.", "yes"),
        ("I don't know, I have no information.", "unsure"),
        ("I'm not sure about that.", "unsure"),
        ("The answer is No because the border is closed.", "no"),
        ("Answer:\nYes, because A.\nNo, because B.", None),  # hedged: commits to both
        ("Paris is a city in France.", None),
        ("", None),
    ],
)
def test_parse_answer(text: str, label: str | None) -> None:
    assert parse_answer(text).label == label


def test_hedged_answer_is_marked_conflict() -> None:
    assert parse_answer("Answer: Yes, because a.\nQuestion 2: ...\nAnswer:\nNo, because b.").how == "conflict"


def test_split_response_quirks() -> None:
    # three or more pieces: head / body / tail
    assert split_response("NON-FACTUAL. A b. C d. E f.") == {"head": "A b. ", "body": "C d. ", "tail": "E f. "}
    # two pieces: the second is the tail only when it starts with "Therefore"
    assert split_response("FACTUAL. A b. Therefore c.")["tail"] == "Therefore c. "
    assert split_response("FACTUAL. A b. So c.") == {"head": "", "body": "A b. So c. ", "tail": ""}
    # the label is cut only in the cases the script checks: "Non-factual" stays in the text
    assert split_response("Non-factual: x")["body"].startswith("Non-factual")


def test_exp_match_hand_computed() -> None:
    pred = "NON-FACTUAL. The capital of France is Paris. Lyon is a city. So the answer is wrong."
    gold = "NON-FACTUAL. The capital of France is Paris. Lyon is big. So it is wrong."
    # body F1: 2 shared of 4 / 3 tokens -> 4/7; head recall 1; tail LCS (so, is, wrong) 3 of 4
    assert exp_match(pred, gold) == pytest.approx(0.7 * 4 / 7 + 0.15 * 1.0 + 0.15 * 0.75)
    # body tokens keep case and punctuation: "City." != "city."
    assert exp_match("FACTUAL. City.", "FACTUAL. city.") == 0.0


# Golden ExpMatch cases for py-rouge's ROUGE-L recall as FactCHD's script runs it: lower case, non-alphanumerics
# to spaces, tokens longer than 3 characters through py-rouge's WordNet table or else the original Porter
# stemmer, each text cut to 665 characters, recall 0 when a text is empty. Body F1 uses raw whitespace tokens.
GOLDEN = [
    pytest.param(
        "NON-FACTUAL. Lyon and Paris are cities that locate in France. It lies on the Rhone river."
        " Therefore the statements are wrong.",
        "NON-FACTUAL. Lyon is a city located in France. It lies on the Rhone. Therefore the statement is wrong.",
        # head gold: lyon is a citi locat in franc (7); pred: lyon and pari are citi that locat in franc
        #   LCS lyon citi locat in franc = 5 -> 5/7 (unstemmed only lyon in france: 3/7)
        # tail gold: therefor the statem is wrong (5); pred: therefor the statem are wrong -> LCS 4 -> 4/5
        #   (unstemmed "statements" != "statement": therefore the wrong, 3/5)
        # body gold [It lies on the Rhone.] (5), pred [It lies on the Rhone river.] (6): 4 shared
        #   ("Rhone" != "Rhone.") -> p 4/6, r 4/5, F1 = 2 * (2/3) * (4/5) / (2/3 + 4/5) = 8/11
        {"head": 5 / 7, "tail": 4 / 5, "body": 8 / 11},
        id="inflected-cities-located",
    ),
    pytest.param(
        "FACTUAL. Einstein was born in Ulm. He was German. Therefore it holds.",
        "FACTUAL. Einstein bears Ulm. He was German. Therefore it holds.",
        # head: py-rouge's WordNet table maps "born" -> "bear", Porter maps "bears" -> "bear":
        #   gold einstein bear ulm (3), pred einstein was bear in ulm -> LCS 3 -> 1 (unstemmed 2/3)
        # tail and body identical -> 1 and 1
        {"head": 1.0, "tail": 1.0, "body": 1.0},
        id="wordnet-table-born-bears",
    ),
    pytest.param(
        "FACTUAL. " + "word " * 133 + "Lyon. It is. Therefore yes.",
        "FACTUAL. Lyon. It is. Therefore yes.",
        # head pred = "word " x 133 + "Lyon. " stripped: 670 characters, cut at 665 = 133 x "word ":
        #   "Lyon" is gone -> LCS with gold [lyon] = 0 -> 0 (without the cut: 1/1)
        # tail: therefor yes = therefor yes -> 1; body "It is." = "It is." -> 1
        {"head": 0.0, "tail": 1.0, "body": 1.0},
        id="truncated-at-665",
    ),
    pytest.param(
        "FACTUAL. Paris is in France.",
        "FACTUAL. Paris is in France.",
        # one sentence: all body (F1 1); head and tail are empty on both sides and py-rouge gives
        # recall 0 for an empty reference, so identical texts score 0.7
        {"head": 0.0, "tail": 0.0, "body": 1.0},
        id="empty-head-and-tail",
    ),
]


@pytest.mark.parametrize(("pred", "gold", "parts"), GOLDEN)
def test_exp_match_golden_py_rouge(pred: str, gold: str, parts: dict[str, float]) -> None:
    got = exp_match_parts(pred, gold)
    assert got == pytest.approx(parts)
    assert exp_match(pred, gold) == pytest.approx(0.15 * parts["head"] + 0.15 * parts["tail"] + 0.7 * parts["body"])


def test_rouge_tokens_are_nltk_word_tokens_without_punkt() -> None:
    # py-rouge runs nltk.word_tokenize, whose Treebank rules split "gonna" into "gon na" (a whitespace
    # split would not): reference [gon, na] (both <= 3 characters, unstemmed), hypothesis the same -> 2/2
    assert rouge_l_recall("gonna", "gon na") == 1.0
    # and "cannot" stays one token, as py-rouge's compatibility hack keeps it: 1 of [can, not] -> 0
    assert rouge_l_recall("cannot", "can not") == 0.0


def test_exp_match_report_rounds_like_the_script() -> None:
    rows = [("c", p.values[0], p.values[1]) for p in GOLDEN[:2]]
    _, typed = score_factchd(rows)
    rep = typed.model_dump()
    # components averaged and rounded to 5 places, then combined and rounded to 4:
    # head (5/7 + 1)/2 = 0.857142.. -> 0.85714; tail (4/5 + 1)/2 = 0.9; body (8/11 + 1)/2 = 0.863636.. -> 0.86364
    assert (rep["all"]["head_rouge_l"], rep["all"]["tail_rouge_l"], rep["all"]["body_f1"]) == (0.85714, 0.9, 0.86364)
    # 0.15 * 0.85714 + 0.15 * 0.9 + 0.7 * 0.86364 = 0.128571 + 0.135 + 0.604548 = 0.868119 -> 0.8681
    assert rep["all"]["exp_match"] == 0.8681


def test_factchd_overall_counts_a_category_named_all_once() -> None:
    rows = [
        ("all", "NON-FACTUAL. x.", "NON-FACTUAL. x."),  # FactCHD has a pair with subgraph_type "all"
        ("chain", "FACTUAL. y.", "NON-FACTUAL. y."),
    ]
    _, typed = score_factchd(rows)
    rep = typed.model_dump()
    assert rep["all"]["num"] == 2 and rep["all"]["acc"] == 0.5  # the old code counted the first row twice: 3, 0.667
    assert rep["groups"]["all"]["num"] == 1 and rep["groups"]["chain"]["num"] == 1


def test_factcls_quirks_hand_computed() -> None:
    rows = [
        ("a", "NON-FACTUAL. x.", "NON-FACTUAL. x."),  # TP
        ("a", "I am not sure.", "NON-FACTUAL. y."),  # no label: fail, not an FN in the script
        ("b", "FACTUAL. z.", "NON-FACTUAL. z."),  # FN
        ("b", "Output: NON-FACTUAL. q.", "FACTUAL. q."),  # "Output:" dropped -> FP
        ("b", "FACTS: the NON-FACTS are clear.", "NON-FACTUAL. r."),  # FACTS: -> NON-FACTUAL -> TP
        ("b", "non-factual. w.", "NON-FACTUAL. w."),  # normalized label -> TP
    ]
    judged, typed = score_factchd(rows)
    rep = typed.model_dump()
    assert [j["parsed_label"] for j in judged] == [
        "NON-FACTUAL",
        None,
        "FACTUAL",
        "NON-FACTUAL",
        "NON-FACTUAL",
        "NON-FACTUAL",
    ]
    overall = rep["all"]
    # TP 3, FP 1, FN 1 -> p = r = 0.75, F1 = 0.75; strict counts the failure as a miss: r = 0.6
    assert (overall["p"], overall["r"], overall["factcls"]) == (0.75, 0.75, 0.75)
    assert overall["factcls_strict"] == pytest.approx(2 * round(0.75 * 0.6 / 1.35, 5))
    assert overall["fail"] == 1 and overall["acc"] == 0.5  # 3 right labels of 6
    assert rep["groups"]["a"]["num"] == 2 and rep["groups"]["b"]["num"] == 4


def test_rationale_oracle_negation_and_years() -> None:
    q = "Is there a movie, released in 2012, starring Liam Neeson where Peter Berg is the director?"
    denied = "Liam Neeson starred in Battleship in 2012, but none of those were directed by Peter Berg."
    assert substring_baseline(denied, "battleship")
    assert not judge_rationale(denied, "battleship", q).correct
    stated = "The movie is Battleship, released in 2012, directed by Peter Berg."
    assert judge_rationale(stated, "battleship", q).correct
    wrong_year = "Battleship was released in 2010."
    assert not judge_rationale(wrong_year, "battleship", q).correct
    follow = "The film is Battleship (2012). However, Liam Neeson does not star in it."
    assert not judge_rationale(follow, "battleship", q).correct
    assert judge_rationale("Its title is Accident, from 1995.", "Accident: A Novel", "published in 1995?").correct


def test_knowledge_points_and_classes() -> None:
    assert knowledge_points("Yes. 1. A is B. 2. B is C.") == ["A is B.", "B is C."]
    assert classify(True, False, GraphSimilarity(0.9, 0.9)) == "CO"
    assert classify(True, False, GraphSimilarity(0.9, 0.1)) == "OL"
    assert classify(False, False, GraphSimilarity(0.6, 0.6)) == "EI"
    assert classify(False, False, GraphSimilarity(0.2, 0.6)) == "EK"
    assert classify(False, True, GraphSimilarity(0.0, 0.0)) == "CO"  # refusal
    assert classify(False, False, None) == "EK"


def test_graph_jaccard_uses_one_to_one_matching() -> None:
    eq = Equivalence(None, wordnet=False)
    resp = semantic_graph([Triple("Paris", "capital of", "France"), Triple("Paris", "located in", "Europe")])
    truth = semantic_graph([Triple("paris", "capital of", "France")])
    sim = graph_similarity(resp, truth, eq)
    assert sim.nodes == pytest.approx(2 / 3) and sim.edges == pytest.approx(1 / 2)
    with pytest.raises(ValueError, match="threshold"):
        Equivalence(None, threshold=0.0)


def test_extractor_failure_is_recorded_per_row_not_hidden() -> None:
    from drowzee_core.errors import DrowzeeError
    from drowzee_core.oracles.score import score_drowzee

    class Flaky:
        def triples(self, text: str) -> list[Triple]:
            if "broken" in text:
                raise DrowzeeError("reply is not JSON")
            return [Triple("Paris", "capital of", "France")]

    rows = [
        {
            "question": "Is Paris the capital of France?",
            "answer": "Yes",
            "llm_answer": f"Yes. {t}",
            "evidence": [["Paris", "capital of", "France"]],
        }
        for t in ("Paris is the capital.", "broken")
    ]
    judged, summary = score_drowzee(rows, Equivalence(None, wordnet=False), extractor=Flaky())
    assert judged[0]["class"] == "CO" and judged[0]["extraction_error"] is None
    assert judged[1]["class"] is None and judged[1]["extraction_error"] == "reply is not JSON"
    assert judged[1]["answer_correct"] is True
    assert summary.overall.extraction_errors == 1 and summary.overall.hallucination_rate == 0.0


def _scored(parsed: str | None, cls: str | None, correct: bool, rule: str = "inverse") -> dict[str, object]:
    return {
        "question": "Q?",
        "answer": "Yes",
        "llm_answer": "...",
        "parsed_answer": parsed,
        "parse_how": "lead" if parsed else "none",
        "answer_correct": correct,
        "class": cls,
        "rule": rule,
        "domain": "geo",
        "model": "m",
    }


def test_hallucination_rate_is_over_parsed_answers(tmp_path: Path) -> None:
    from drowzee_core.oracles.report import write_report
    from drowzee_core.oracles.score import summarize_drowzee

    rows = [
        _scored("yes", "CO", True),
        _scored("yes", "CO", True),
        _scored("no", "EK", False),
        _scored("unsure", "CO", False),  # a refusal is parsed and is CO
        _scored(None, "EK", False),  # unparsed: scored EK by the graph oracle, but not a hallucination here
        _scored(None, "EK", False),
        _scored(None, "EK", False, rule="negation"),
    ]
    o = summarize_drowzee(rows).overall.model_dump()
    # 4 parsed answers, 1 of them not CO -> 1/4 (the old figure counted the 3 unparsed: 4/7)
    assert (o["n"], o["parsed"], o["unparsed"]) == (7, 4, 3)
    assert o["hallucination_rate"] == 0.25 and o["answer_accuracy"] == 0.5
    assert o["classes"] == {"CO": 3, "OL": 0, "EI": 0, "EK": 1} and o["refused"] == 1
    lo, hi = o["hallucination_rate_ci95"]
    assert lo < 0.25 < hi
    models = write_report(rows, tmp_path)
    assert models["m"].by_rule["negation"].hallucination_rate_ci95 is None  # only an unparsed answer
    md = (tmp_path / "report.md").read_text()
    assert "| m | 7 | 4 | 3 | 0.500 | 0.250 [" in md
    assert "| negation | 1 | 0 | 1 | 0.000 | - |" in md
    html = (tmp_path / "report.html").read_text()
    assert '<th style="text-align:right">unparsed</th>' in html and "0.250 [0.05, 0.70]</td>" in html


def test_the_report_prose_and_examples_are_wrapped_and_read_as_one_item(tmp_path: Path) -> None:
    from drowzee_core.oracles.report import MD_WIDTH, write_report

    long = _scored("no", "EK", False) | {"llm_answer": "No. " + "Because the border runs elsewhere. " * 12}
    write_report([long, _scored("yes", "CO", True)], tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert all(len(line) <= MD_WIDTH for line in md.splitlines() if not line.startswith("|"))
    html = (tmp_path / "report.html").read_text()
    assert html.count("<li>") == 1 and "elsewhere. Because the" in " ".join(html.split())  # one item, lines joined


def test_a_scored_row_without_what_the_summary_reads_names_its_row_and_field() -> None:
    from drowzee_core.oracles.score import summarize_drowzee
    from drowzee_core.records.readers import RecordError

    ok = _scored("yes", "CO", True)
    older = {k: v for k, v in ok.items() if k != "parse_how"}  # a file written before `parse_how`: still read
    assert summarize_drowzee([older]).overall.parsed == 1
    with pytest.raises(RecordError, match=r"judged row 2: field `answer_correct`"):
        summarize_drowzee([ok, {k: v for k, v in ok.items() if k != "answer_correct"}])
