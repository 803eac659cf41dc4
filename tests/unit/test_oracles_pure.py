import pytest

from drowzee_core.oracles.answers import parse_answer
from drowzee_core.oracles.extract import knowledge_points
from drowzee_core.oracles.factchd_metrics import exp_match, score_factchd, split_response
from drowzee_core.oracles.graph import Equivalence, GraphSimilarity, classify, graph_similarity, semantic_graph
from drowzee_core.oracles.rationale import judge_rationale, substring_baseline
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


def test_factcls_quirks_hand_computed() -> None:
    rows = [
        ("a", "NON-FACTUAL. x.", "NON-FACTUAL. x."),  # TP
        ("a", "I am not sure.", "NON-FACTUAL. y."),  # no label: fail, not an FN in the script
        ("b", "FACTUAL. z.", "NON-FACTUAL. z."),  # FN
        ("b", "Output: NON-FACTUAL. q.", "FACTUAL. q."),  # "Output:" dropped -> FP
        ("b", "FACTS: the NON-FACTS are clear.", "NON-FACTUAL. r."),  # FACTS: -> NON-FACTUAL -> TP
        ("b", "non-factual. w.", "NON-FACTUAL. w."),  # normalized label -> TP
    ]
    judged, rep = score_factchd(rows)
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
    assert rep["a"]["num"] == 2 and rep["b"]["num"] == 4


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
    assert summary["overall"]["extraction_errors"] == 1 and summary["overall"]["hallucination_rate"] == 0.0
