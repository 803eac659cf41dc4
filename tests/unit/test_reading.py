"""The semantic reader: free sentences -> (subject, relation, object, polarity), with the bundled catalog.

Names are "known" from a fixed set here (no KB); the sentences are written for these tests.
"""

from __future__ import annotations

from functools import cache

import pytest

from agents.reading.candidates.lexicon import Lexicon
from agents.reading.candidates.reader import Reading, nlp, read
from agents.reading.candidates.scope import supposed_tokens
from agents.reading.claims.free import flip
from agents.reading.mentions.values import as_number, as_year
from agents.reading.questions import question_text
from agents.reading.questions.asking import without_echoes
from drowzee_core.kb.catalog import Catalog

NAMES = {
    "ada lovelace",
    "lovelace",
    "germany",
    "france",
    "oxygen",
    "isaac newton",
    "paris",
    "lyon",
    "marie curie",
    "radium",
    "spain",
    "portugal",
    "she",
    "1905",
    "border",
    "capital",
}


def known(name: str) -> bool:
    return name.lower() in NAMES


@cache
def lexicon() -> Lexicon:
    return Lexicon.from_catalog(Catalog.from_toml(), nlp())


def readings(sentence: str, previous: str | None = None) -> list[tuple[str, str, str, bool]]:
    return [(r.subject, r.relation, r.object, r.negated) for r in read(nlp()(sentence), lexicon(), known, previous)]


@pytest.mark.parametrize(
    ("sentence", "want"),
    [
        ("Ada Lovelace was born in 1815 in London.", ("Ada Lovelace", "born_in_year", "1815", False)),
        ("Back in 1815, Ada Lovelace was born.", None),  # the year comes before the verb: no order fits
        ("Germany and France do not share a border.", ("Germany", "shares_border_with", "France", True)),
        ("Spain shares a border with Portugal.", ("Spain", "shares_border_with", "Portugal", False)),
        ("Oxygen was discovered by Isaac Newton.", ("Oxygen", "discovered_by", "Isaac Newton", False)),
        ("Isaac Newton discovered oxygen in 1774.", ("Isaac Newton", "discovered", "oxygen", False)),
        ("The capital of France is Lyon.", ("France", "has_capital", "Lyon", False)),
        ("The capital in France is Lyon.", ("France", "has_capital", "Lyon", False)),  # a noun's "in" before a name
        ("The capital in 1905 is Lyon.", None),  # "in" before a year is no "of"
        ("France's capital is Paris.", ("France", "has_capital", "Paris", False)),
        ("Paris is the capital city of France.", ("France", "has_capital", "Paris", False)),
        ("Lovelace never died in 1852.", ("Lovelace", "died_in_year", "1852", True)),
        ("The year of death of Lovelace is 1852.", ("Lovelace", "died_in_year", "1852", False)),
        ("Zorblat was discovered by Isaac Newton.", None),  # an unknown name stays unknown
        ("Germany is a lovely place.", None),  # no relation's cues
        # a name in apposition to a definite description stands where the description does
        ("Paris is the capital of the old republic France.", ("France", "has_capital", "Paris", False)),
        ("Paris is the capital of another republic (France).", None),  # an indefinite description
    ],
)
def test_free_sentences_read_into_claims(sentence: str, want: tuple[str, str, str, bool] | None) -> None:
    got = readings(sentence)
    if want is None:
        assert got == []
    else:
        assert [(s, r, o, n) for s, r, o, n in got] == [want] or _same_inverse(got, want)


def _same_inverse(got: list[tuple[str, str, str, bool]], want: tuple[str, str, str, bool]) -> bool:
    inverse = lexicon().inverse
    return len(got) == 1 and (got[0][2], inverse.get(got[0][1]), got[0][0], got[0][3]) == want


def test_a_pronoun_subject_is_the_previous_subject_and_never_a_name() -> None:
    assert readings("She was born in 1867.", previous="Marie Curie") == [("Marie Curie", "born_in_year", "1867", False)]
    assert readings("She was born in 1867.") == []  # "She" is a KB label somewhere; a pronoun is never a name


def test_cue_words_are_never_names_and_years_are_values() -> None:
    got = read(nlp()("Ada Lovelace was born in 1905."), lexicon(), known)
    assert [(r.relation, r.object) for r in got] == [("born_in_year", "1905")]  # "1905" is a year, not a name


def test_passive_and_active_templates_keep_their_voice() -> None:
    verbal = [p for p in lexicon().patterns if "discover" in p.cues]
    assert all(p.passive for p in verbal if p.relation == "discovered_by")
    assert not any(p.passive for p in verbal if p.relation == "discovered")


def test_a_yes_no_question_and_its_answer() -> None:
    assert question_text("Tell me. Do Germany and France share a border?") == "Do Germany and France share a border?"
    assert question_text("Who discovered oxygen?") is None
    (q,) = read(nlp()("Do Germany and France share a border?"), lexicon(), known)
    no = flip(q, yes=False)
    assert (no.subject, no.relation, no.object, no.negated) == ("Germany", "shares_border_with", "France", True)
    assert flip(q, yes=True) == q


@pytest.mark.parametrize(
    ("text", "year", "number"),
    [("1879", 1879, "1879"), ("3,784,539", None, "3784539"), ("1870s", None, None), ("12.5", None, "12.5")],
)
def test_values(text: str, year: int | None, number: str | None) -> None:
    assert as_year(text) == year and as_number(text) == number
    assert as_number("67", "million") == "67000000" and as_number("67", "apples") is None


def test_readings_are_typed_records() -> None:
    r = Reading("a", "born_in_year", "1900", False, False, 1)
    assert r.cues == 1


def test_a_reading_that_leaves_a_name_or_year_out_is_partial() -> None:
    (r,) = read(nlp()("Ada Lovelace was born in 1815 in Paris."), lexicon(), known)
    assert (r.relation, r.object, r.partial) == ("born_in_year", "1815", True)
    (whole,) = read(nlp()("Ada Lovelace was born in 1815."), lexicon(), known)
    assert not whole.partial


def test_a_short_answer_fills_the_question_word() -> None:
    from agents.reading.candidates.reader import Mention
    from agents.reading.claims.sentence_reader import SentenceReader
    from agents.reading.questions import wh_question
    from drowzee_core.kb.model import ValueKind

    assert wh_question("Quick one. What is the capital of France?") == "What is the capital of France?"
    lyon = Mention(0, 1, "Lyon", ValueKind.ENTITY)
    (r,) = read(nlp()("What is the capital of France?"), lexicon(), known, answer=lyon)
    assert (r.subject, r.relation, r.object) == ("France", "has_capital", "Lyon")
    reader = SentenceReader(Catalog.from_toml())
    assert reader.answer_of("Lyon is lovely.", known) is None  # a statement, not a short answer
    assert reader.answer_of("France.", known, "What is the capital of France?") is None  # the question's own name


def test_a_listed_answer_gives_every_name_an_unknown_one_too() -> None:
    from agents.reading.claims.sentence_reader import SentenceReader

    reader = SentenceReader(Catalog.from_toml())
    found = reader.answers_of("Lyon, Paris and Quorvath.", known, "Which cities lie in France?")
    assert [(m.text, m.linked) for m in found] == [("Lyon", True), ("Paris", True), ("Quorvath", False)]
    assert reader.answer_of("Quorvath.", known, "What is the capital of France?") is None  # nothing knows it
    assert [m.text for m in reader.answers_of("Lyon.", known, "What is the capital of France?")] == ["Lyon"]


def test_supplied_relation_labels_read_as_verb_phrases_and_relational_nouns() -> None:
    from agents.reading.candidates.reader import Mention
    from drowzee_core.kb.model import ValueKind

    labels = Lexicon.from_labels(["directed by", "operating system"], nlp())
    lex = lexicon().merged(labels)
    names = NAMES | {"jaws", "steven spielberg", "doom", "linux"}

    def k(name: str) -> bool:
        return name.lower() in names

    said = [(r.subject, r.relation, r.object) for r in read(nlp()("Jaws was directed by Steven Spielberg."), lex, k)]
    assert said == [("Jaws", "directed by", "Steven Spielberg")]
    spielberg = Mention(0, 2, "Steven Spielberg", ValueKind.ENTITY)
    (asked,) = read(nlp()("Who directed Jaws?"), lex, k, answer=spielberg)
    assert (asked.subject, asked.object) == ("Jaws", "Steven Spielberg")
    (os_,) = read(nlp()("The operating system of Doom is Linux."), lex, k)
    assert (os_.subject, os_.relation, os_.object) == ("Doom", "operating system", "Linux")


@pytest.mark.parametrize(
    ("response", "answer"),
    [
        ("Lyon.", "Lyon"),
        ("Lyon, as far as I know.", "Lyon"),
        ("The answer is Lyon. Paris is lovely.", "Lyon"),
        ("I think it is Lyon.", None),  # a statement with its own verb: read as a sentence, not as a short answer
        ("Lyon is lovely.", None),
    ],
)
def test_a_short_answer_is_the_first_sentence_without_its_hedge(response: str, answer: str | None) -> None:
    from agents.reading.claims.sentence_reader import SentenceReader

    found = SentenceReader(Catalog.from_toml()).answer_of(response, known, "What is the capital of France?")
    assert (found.text if found else None) == answer


def test_numbers_in_words() -> None:
    from agents.reading.mentions.values import words_to_number

    assert words_to_number(["sixty-seven", "million"]) == 67_000_000
    assert words_to_number(["two", "hundred", "and", "five", "thousand"]) == 205_000
    assert words_to_number(["thousand", "million"]) is None and words_to_number(["and"]) is None
    assert words_to_number(["apples"]) is None
    from agents.reading.candidates.reader import mentions

    found = mentions(nlp()("Spain has about forty-seven million people and one king."), known)
    assert [(m.text, m.kind.value) for m in found] == [("Spain", "entity"), ("47000000", "quantity")]


def test_years_spoken_in_two_digit_blocks() -> None:
    from agents.reading.mentions.values import year_in_words

    assert year_in_words(["nineteen", "eighty-nine"]) == (1989, False)
    assert year_in_words(["nineteen", "eighty", "-", "nine"]) == (1989, False)  # as spaCy splits the hyphen
    assert year_in_words(["twenty", "twenty"]) == (2020, False)
    assert year_in_words(["eighteen", "fifteen"]) == (1815, False)
    assert year_in_words(["fifteen", "hundred"]) == (1500, True)  # a year, or a count
    assert year_in_words(["nineteen", "hundred", "and", "one"]) == (1901, True)
    assert year_in_words(["nineteen", "oh", "five"]) == (1905, False)
    assert year_in_words(["twenty", "five"]) is None  # 25
    assert year_in_words(["nineteen", "five"]) is None  # no second block of two digits
    assert year_in_words(["sixty", "seventy"]) is None and year_in_words(["two", "thousand", "and", "five"]) is None
    from agents.reading.candidates.reader import mentions

    fell = mentions(nlp()("Spain joined in nineteen eighty-six, with fifteen hundred guests."), known)
    assert [(m.text, m.kind.value) for m in fell] == [
        ("Spain", "entity"),
        ("1986", "year"),
        ("1500", "year"),
        ("1500", "quantity"),
    ]
    said = mentions(nlp()("It opened in nineteen oh five and closed in two thousand and five."), known)
    assert [(m.text, m.kind.value) for m in said] == [("1905", "year"), ("2005", "year"), ("2005", "quantity")]


def test_rounded_and_approximate_numbers_carry_a_tolerance() -> None:
    from agents.reading.mentions.values import number_phrase, tolerance

    assert number_phrase("about 83 million") == ("83000000", 0.05)
    assert number_phrase("3,784,539") == ("3784539", None)
    number, tol = number_phrase("eighty-three million")  # type: ignore[misc]
    assert number == "83000000" and tol is not None and abs(tol - 0.5 / 83) < 1e-9
    assert number_phrase("Lyon") is None and number_phrase("about Lyon") is None
    assert tolerance("1200", approx=False, rounded=False) is None
    assert tolerance("1200", approx=True, rounded=False) == 0.05


@pytest.mark.parametrize(
    ("sentence", "time", "year"),
    [
        ("Until 1990 the capital of France was Lyon.", "until", 1990),
        ("The capital of France has been Lyon since 1990.", "since", 1990),
        ("Before 1990 the capital of France was Lyon.", "before", 1990),
        ("By 1990 the capital of France was Lyon.", "by", 1990),
        ("After 1990 the capital of France was Lyon.", "after", 1990),
        ("As of 1990 the capital of France was Lyon.", "at", 1990),
    ],
)
def test_a_time_word_before_a_year_dates_a_claim_by_it(sentence: str, time: str, year: int) -> None:
    (r,) = read(nlp()(sentence), lexicon(), lambda n: n.lower() in {"france", "lyon"})
    assert (r.relation, r.object, r.year, r.time, r.partial) == ("has_capital", "Lyon", year, time, False)


def test_a_year_after_in_dates_a_claim_and_is_not_left_over() -> None:
    (r,) = read(nlp()("In 1995 the capital of France was Lyon."), lexicon(), lambda n: n.lower() in {"france", "lyon"})
    assert (r.relation, r.object, r.year, r.past, r.partial) == ("has_capital", "Lyon", 1995, True, False)
    (born,) = read(nlp()("Ada Lovelace was born in 1815."), lexicon(), known)
    assert born.year is None and born.object == "1815"


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Lyon lies outside France.", [("Lyon", "located_in", "France", True)]),
        ("Lyon lies in France.", []),  # the antonym's "outside" is part of it: no negated reading without it
    ],
)
def test_an_antonym_keeps_the_preposition_that_makes_it_one(sentence: str, expected: list[object]) -> None:
    assert [r for r in readings(sentence) if r[1] == "located_in"] == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Oxygen has atomic number 8.", ("Oxygen", "atomic_number", "8", False)),
        ("Germany has a population of 83,000,000.", ("Germany", "population", "83000000", False)),
    ],
)
def test_a_numbers_relation_is_read_with_has(sentence: str, expected: tuple[str, str, str, bool]) -> None:
    assert readings(sentence) == [expected]


def test_the_has_form_needs_its_verb() -> None:
    # the number is the region's, not Germany's: without "has" between them, no population reading
    assert [
        r for r in readings("Germany is a state in a region with a population of 83,000,000.") if r[1] == "population"
    ] == []


def test_a_quotation_of_the_query_is_blanked_and_other_quotations_stay() -> None:
    query = "Is Pell Orrin the coach of Tam Reyes?"
    response = 'My answer to "Is Pell Orrin the coach of Tam Reyes?": yes, he said "we train every day".'
    bare = without_echoes(query, response)
    assert len(bare) == len(response) and "Pell Orrin" not in bare
    assert '"we train every day"' in bare and bare.endswith('yes, he said "we train every day".')
    assert without_echoes("", response) == response


def test_a_reported_clause_is_not_asserted() -> None:
    doc = nlp()("The claim that Lio coached Ama is false.")
    assert {t.text for t in doc if t.i in supposed_tokens(doc)} >= {"Lio", "coached", "Ama"}
    fact = nlp()("The fact that Lio coached Ama is known.")
    assert not supposed_tokens(fact)


def test_a_claim_opens_with_a_capital_though_its_name_is_written_in_lower_case() -> None:
    from agents.reading.candidates import verbalize

    said = verbalize(Catalog.from_toml(), Reading("velium", "in_block", "p-block", False, False, 1))
    assert said == "Velium is in the p-block of the periodic table."


def test_a_plural_common_noun_names_the_kind_the_kb_holds_in_the_singular() -> None:
    from agents.reading.mentions import mentions

    names = {"tova brenn", "quasicrystal"}
    doc = nlp()("Tova Brenn studied quasicrystals in 1984.")
    found = [m.text for m in mentions(doc, lambda n: n.lower() in names)]
    assert "quasicrystal" in found and "Tova Brenn" in found
    # a plural the KB holds as written stays as written; an unknown one names nothing
    plural = {*names, "quasicrystals"}
    assert [m.text for m in mentions(nlp()("Tova Brenn studied quasicrystals."), lambda n: n.lower() in plural)][1] == (
        "quasicrystals"
    )
    unknown = mentions(nlp()("Tova Brenn studied lattices."), lambda n: n.lower() in names)
    assert [m.text for m in unknown] == ["Tova Brenn"]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "Orvin lies in Norland \u2014 the country whose capital is Vell.",
            "Orvin lies in Norland , the country whose capital is Vell.",
        ),
        ("Orvin lies in Norland - the country of lakes.", "Orvin lies in Norland , the country of lakes."),
        ("Orvin\u2014the old town\u2014lies in Norland.", "Orvin,the old town,lies in Norland."),
        ("The s-block; 1948\u20132002; 7 - 3 is 4.", "The s-block; 1948\u20132002; 7 - 3 is 4."),
    ],
)
def test_an_asides_dash_reads_as_a_comma_and_a_words_or_ranges_dash_stays(text: str, want: str) -> None:
    from agents.reading.claims.response import dashes_as_commas

    assert dashes_as_commas(text) == want
    assert len(dashes_as_commas(text)) == len(text)


def test_a_subject_the_tagger_took_for_an_interjection_is_still_a_name() -> None:
    from agents.reading.mentions import mentions

    doc = nlp()("Tin is soft.")
    assert doc[0].pos_ == "INTJ"  # the parse this test is about
    assert [m.text for m in mentions(doc, lambda n: n.lower() == "tin")] == ["Tin"]
