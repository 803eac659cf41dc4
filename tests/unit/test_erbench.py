"""ERBench generation over small tables: schema checks, FD violations, answers, FD values."""

from __future__ import annotations

import csv
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from drowzee_core.errors import DrowzeeError
from drowzee_core.generate.erbench import ERBenchConfig, ERBenchGenerator, load_schema

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "erbench" / "movie.toml"


def _write(tmp: Path, movies: list[tuple[str, str, str, str]], directors: list[tuple[str, str]]) -> None:
    with (tmp / "movie_df.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["", "index", "common_entity", "entity3", "entity2", "entity1"])
        for i, (t, y, d, s) in enumerate(movies):
            w.writerow([i, i, t, y, d, s])
    with (tmp / "movie_year_final.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["", "common_entity", "entity3", "entity2", "entity1", "entity4"])
        for i, (d, b) in enumerate(directors):
            w.writerow([i, "x", "2000", d, "y", b])


MOVIES = [(f"Film {i}", f"{1990 + i}.0", f"Director {i % 4}", f"Star {i}") for i in range(12)]
DIRECTORS = [(f"Director {i}", str(1940 + i)) for i in range(4)]


def test_questions_answers_and_fd_values(tmp_path: Path) -> None:
    _write(tmp_path, [*MOVIES, ("Clash", "1990.0", "Director 0", "Star 0")], DIRECTORS)  # breaks the FD
    gen = ERBenchGenerator(load_schema(SCHEMA), tmp_path)
    assert gen.summary()["fd_violations"] == {"movie: director,star,year -> title": 2}
    cases = [c.model_dump(mode="json") for c in gen.generate(ERBenchConfig(n=80, seed=1))]
    assert Counter(c["question_type"] for c in cases) == {
        t: 20 for t in ("binary", "negated", "multiple_choice", "multi_hop")
    }
    rows = {(f"Film {i}", str(1990 + i), f"Director {i % 4}", f"Star {i}") for i in range(1, 12)}
    for c in cases:
        r = c["row"]
        assert (r["title"], r["year"], r["director"], r["star"]) in rows  # violating rows are left out
        if c["question_type"] == "binary":
            assert c["answer"] == "Yes" and c["fd_values"] == [r["title"]] and r["star"] in c["question"]
        elif c["question_type"] == "negated":
            assert c["answer"] == "No" and "no movies" in c["question"]
        elif c["question_type"] == "multiple_choice":
            assert len(c["options"]) == 5 and c["options"][-1] == "E. None of the above"
            if c["answer"] != "E":
                k = "ABCD".index(c["answer"])
                true_title = c["rows"][k]["title"]
                assert f"The movie {true_title} was" not in c["options"][k] and c["fd_values"] == [true_title]
        else:
            born = c["question"].rsplit(" ", 1)[1].rstrip("?")
            real = dict(DIRECTORS)[r["director"]]
            assert (born == real) == (c["answer"] == "Yes")
            assert c["fd_values"] == [r["title"], r["director"]]


def test_sqlite_tables_and_clear_schema_errors(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE movies(title, year, director, star)")
    con.executemany("INSERT INTO movies VALUES (?,?,?,?)", [(t, y, d, s) for t, y, d, s in MOVIES])
    con.commit()
    con.close()
    fd = "[[fd]]" + SCHEMA.read_text().split("[[fd]]")[1].split("[[fk]]")[0]
    schema = tmp_path / "s.toml"
    schema.write_text(
        '[[table]]\nname = "movie"\nsqlite = "m.sqlite"\nsource = "movies"\nintegers = ["year"]\n'
        'columns = { title = "title", year = "year", director = "director", star = "star" }\n\n' + fd
    )
    gen = ERBenchGenerator(load_schema(schema), tmp_path)
    cases = gen.generate(ERBenchConfig(n=9, seed=0, types=("binary", "negated", "multiple_choice")))
    assert len(cases) == 9 and all(c.row["year"].isdigit() for c in cases)
    with pytest.raises(DrowzeeError, match="multi_hop questions need"):
        gen.generate(ERBenchConfig(n=4, types=("multi_hop",)))
    bad = tmp_path / "bad.toml"
    bad.write_text(SCHEMA.read_text().replace('rhs = "title"', 'rhs = "budget"'))
    with pytest.raises(DrowzeeError, match="'budget' is not a column"):
        load_schema(bad)
    with pytest.raises(DrowzeeError, match="no such CSV file"):
        ERBenchGenerator(load_schema(SCHEMA), tmp_path / "nowhere")
