"""Generation over others' data and real models: ERBench on the peers' movie table, embedding dedupe."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from drowzee_core.generate.dedupe import deduper
from drowzee_core.generate.erbench import ERBenchConfig, ERBenchGenerator, load_schema
from tests.conftest import peers_path

pytestmark = pytest.mark.integration

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "erbench" / "movie.toml"


def test_erbench_questions_from_the_movie_table() -> None:
    base = peers_path("erbench", "movie")
    with (base / "movie_df.csv").open(newline="") as fh:
        rows = {
            (r["common_entity"], str(int(float(r["entity3"]))), r["entity2"], r["entity1"]) for r in csv.DictReader(fh)
        }
    gen = ERBenchGenerator(load_schema(SCHEMA), base)
    assert gen.summary()["rows"] == {"movie": 1500, "director": 1267}
    cases = [c.model_dump(mode="json") for c in gen.generate(ERBenchConfig(n=400, seed=0))]
    assert Counter(c["question_type"] for c in cases) == {
        t: 100 for t in ("binary", "negated", "multiple_choice", "multi_hop")
    }
    titles_by_lhs = {(y, d, s): t for t, y, d, s in rows}
    for c in cases:
        r = c["row"]
        assert (r["title"], r["year"], r["director"], r["star"]) in rows
        if c["question_type"] in ("binary", "negated"):
            # the FD-inferred value is the title the table gives for (director, star, year)
            assert c["fd_values"] == [titles_by_lhs[(r["year"], r["director"], r["star"])]]
        if c["question_type"] == "multiple_choice" and c["answer"] != "E":
            false_row = c["rows"]["ABCD".index(c["answer"])]
            assert c["fd_values"] == [false_row["title"]]
    assert Counter(c["answer"] for c in cases if c["question_type"] == "binary") == {"Yes": 100}
    assert 10 <= sum(c["answer"] == "E" for c in cases if c["question_type"] == "multiple_choice") <= 35


def test_real_sentence_embeddings_drop_paraphrased_queries() -> None:
    from drowzee_core.llm.embeddings import embedder

    keep = deduper(embedder().encode, 0.9)
    queries = [
        "What is the capital of France?",
        "What is the capital city of France?",
        "What is the population of Peru?",
        "Among Chlorine and Hafnium, which one was discovered earliest?",
    ]
    assert keep(queries) == [0, 2, 3]
