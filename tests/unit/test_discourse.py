"""A response as the plain statements it makes (`agents.reading.clauses.discourse`, real spaCy).

The sentences are invented, and the hedges are worded in ways the natural-style generator never uses,
so that these tests check the grammar, not a round trip of the generator's phrase lists.
"""

from __future__ import annotations

import pytest
from spacy.tokens import Doc

from agents.reading.candidates.reader import nlp
from agents.reading.clauses.appositions import appositions
from agents.reading.clauses.discourse import plain


@pytest.mark.parametrize(
    ("response", "statements"),
    [
        # first-person hedges, before and after the claim
        ("In my opinion, Westland borders Norland.", "Westland borders Norland."),
        ("If I'm not mistaken, the bridge opened in 1931.", "The bridge opened in 1931."),
        ("I reckon that Tova Brenn wrote the novel.", "Tova Brenn wrote the novel."),
        ("We assume the river is 300 km long.", "The river is 300 km long."),
        ("Orvin, if I recall.", "Orvin."),
        ("The lake is deep, as I understand it.", "The lake is deep."),
        ("I'm fairly sure it's Orvin.", "It's Orvin."),
        ("We are certain that the bridge opened in 1931.", "The bridge opened in 1931."),
        # connectives and frames that say nothing of the fact
        ("It follows that Westland is larger.", "Westland is larger."),
        ("The capital is thus Orvin.", "The capital is Orvin."),
        ("This means the dam was finished in 1950.", "The dam was finished in 1950."),
        ("Tova Brenn was the one who founded the paper.", "Tova Brenn founded the paper."),
        ("This makes Orvin the capital of Norland.", "The capital of Norland is Orvin."),
        # non-restrictive relative clauses become statements about the name they follow
        (
            "Tova Brenn, who was born in 1901, founded the paper.",
            "Tova Brenn founded the paper. Tova Brenn was born in 1901.",
        ),
        ("Norland, whose capital is Orvin, borders Westland.", "Norland borders Westland. Norland's capital is Orvin."),
        # a second predicate of the same named subject becomes its own statement
        ("Tova Brenn was born in 1901 and died in 1980.", "Tova Brenn was born in 1901. Tova Brenn died in 1980."),
        # two clauses, each with its subject: two sentences (`agents.reading.clauses.splits`)
        (
            "Tova Brenn was born in 1901 and Ansel Krane died in 1980.",
            "Tova Brenn was born in 1901. Ansel Krane died in 1980.",
        ),
        # the second clause's bare number has the unit the first clause gives its number
        ("Orvin has 12,000 people, while Vell has 9,000.", "Orvin has 12,000 people. Vell has 9,000 people."),
        (
            "Orvin covers 300 square kilometres, while Vell covers about 2.5 million.",
            "Orvin covers 300 square kilometres. Vell covers about 2.5 million square kilometres.",
        ),
        ("Orvin has 12,000 people, while Vell has 9,000 cars.", "Orvin has 12,000 people. Vell has 9,000 cars."),
        # a verb's second object that says a noun and its value, and a second "and in B", are facts of their own
        (
            "Orvin has district number 4 and the postal code V12.",
            "Orvin has district number 4. Orvin has the postal code V12.",
        ),
        ("Velium is in the f-block and in period 7.", "Velium is in the f-block. Velium is in period 7."),
        # an apposition whose closing comma the parse hangs inside it, of a common noun said with no article
        ("Ansium, element 92, is in period 7.", "Ansium is in period 7. Ansium is element 92."),
        ("Yes, velium, element 92, is grey.", "Yes, velium is grey. Velium is element 92."),
        # the same, the parse hanging the second "in" on the first "in", not on its object
        ("Velium is in period 4 and in the d-block.", "Velium is in period 4. Velium is in the d-block."),
        # "X has V as its N" says what X's N is
        ("Norland has the orv as its currency.", "Norland's currency is the orv."),
        ("Yes, Norland uses the orv as its official currency.", "Yes, Norland's official currency is the orv."),
        (
            "Norland, whose capital is Orvin, has the orv as its currency.",
            "Norland's currency is the orv. Norland's capital is Orvin.",
        ),
        # a value another name is said to share is said of that name too
        (
            "Tova Brenn was born in 1901, the same year as Ansel Krane.",
            "Tova Brenn was born in 1901. Ansel Krane was born in 1901.",
        ),
        ("Velox lies in Orvin, the same province as Vell.", "Velox lies in Orvin. Vell lies in Orvin."),
        ("Velox uses the orv, the same currency as Norland.", "Velox uses the orv. Norland uses the orv."),
        (
            "Velox joined Norland in 1990, the same year as Orvin.",
            "Velox joined Norland in 1990. Orvin joined Norland in 1990.",
        ),
        ("Velox belongs to Orvin, as does Vell.", "Velox belongs to Orvin. Vell belongs to Orvin."),
        ("Tova Brenn died in 1980, as did Lena Moss.", "Tova Brenn died in 1980. Lena Moss died in 1980."),
        # a verb's second argument said again with its subject and verb; a time word's year stays with each
        (
            "Radium was discovered by Marie Curie in Paris in 1898.",
            "Radium was discovered by Marie Curie. Radium was discovered in Paris. Radium was discovered in 1898.",
        ),
        ("Lena Moss led the party from Orvin until 1990.", "Lena Moss led the party from Orvin until 1990."),
        # a clause the parse hangs under another keeps its second predicate and its second argument
        (
            "Tova Brenn was born in 1901 and died in 1980, so she was 79.",
            "Tova Brenn was born in 1901, so she was 79. Tova Brenn died in 1980.",
        ),
        (
            "Velox was designed by Ansel Krane at Norland; it was influenced by Orvin.",
            "Velox was designed by Ansel Krane; it was influenced by Orvin. Velox was designed at Norland.",
        ),
        # a subject's modifier set off by commas says a fact of its own, when it names something
        (
            "Velox, designed at Norland, first appeared in 1990.",
            "Velox first appeared in 1990. Velox was designed at Norland.",
        ),
        (
            "Orvin, home to 12,000 people, lies on the coast.",
            "Orvin lies on the coast. Orvin is home to 12,000 people.",
        ),
        ("Tova Brenn, the famous editor, founded the paper.", "Tova Brenn, the famous editor, founded the paper."),
        # what a participle or a relative clause says of a copula's predicate noun it says of the subject
        (
            "Tova Brenn was a chemist, born in 1901, who died in 1980.",
            "Tova Brenn was a chemist. Tova Brenn died in 1980. Tova Brenn was born in 1901.",
        ),
        (
            "Tova Brenn was a Norlandic chemist, born in Orvin.",
            "Tova Brenn was a Norlandic chemist. Tova Brenn was born in Orvin.",
        ),
        # a relative clause after a name inside such a participle: the name or the subject? it stays unsplit
        (
            "Velox is a language, designed at Norland, which first appeared in 1990.",
            "Velox is a language. Velox was designed at Norland, which first appeared in 1990.",
        ),
        (
            "Tova Brenn was a chemist born in Orvin, which lies in Norland.",
            "Tova Brenn was a chemist born in Orvin. Orvin lies in Norland.",
        ),
        # a counted noun's list of names: the count stays, the list is said of the name
        (
            "Norland has two official tongues: Orvish and Vellan.",
            "Norland has two official tongues. Official tongues of Norland are Orvish and Vellan.",
        ),
        (
            "The paper moved to Puerto de la Cruz, which lies on the coast.",
            "The paper moved to Puerto de la Cruz. Puerto de la Cruz lies on the coast.",
        ),
    ],
)
def test_the_frame_goes_and_the_claims_stay(response: str, statements: str) -> None:
    assert plain(nlp()(response)).text == statements


@pytest.mark.parametrize(
    "response",
    [
        "I don't think Westland borders Norland.",  # a denial, not a hedge
        "Yes, Westland borders Norland.",
        "The city that I like is Orvin.",  # restrictive: no statement of its own
        "Norland, which I visited, borders Westland.",  # the pronoun is no subject
        "Possibly, the bridge opened in 1931.",  # modality changes the claim
        "According to Tova Brenn, the bridge opened in 1931.",  # a source, not the writer's stance
        "That makes sense.",
        "Tova Brenn died in 1980, as did Lena Moss in 1990.",  # Lena Moss does more than the clause says
        "Norland does not have the orv as its currency.",  # "X's N is not V" is for the readers to say
        "Norland borders Vell and Orvin.",  # a list of names: read one name at a time (`coordination`)
        "Orvin is in Norland in the north.",  # one place said inside another, not two places
        "Norland has used the orv as its currency since 1990.",  # the date would be lost
        "Velox lies in Orvin, the same province as the river.",  # the other is no name
        "Velox was founded in 1871, the same year that Vell was founded.",  # a clause of its own, not a name
        "Velox lies in Orvin, the same year as Vell.",  # a year is shared only where the clause says one
    ],
)
def test_what_changes_the_claim_is_kept(response: str) -> None:
    assert plain(nlp()(response)).text == response


@pytest.mark.parametrize(
    ("response", "statement"),
    [
        ("They did: Norland observed Founders' Day.", "Norland observed Founders' Day."),
        ("It is, Tova Brenn was born in Vell.", "Tova Brenn was born in Vell."),
        ("They do not; Orvin and Vell lie in Westland.", "Orvin and Vell lie in Westland."),
        ("Yes to both: the bridge opened in 1931.", "The bridge opened in 1931."),
    ],
)
def test_a_short_answer_before_a_clause_of_its_own_goes(response: str, statement: str) -> None:
    assert plain(nlp()(response)).text == statement


@pytest.mark.parametrize(
    "response",
    [
        "It does, as a rule.",  # nothing follows that says the fact
        "In 1931, the bridge opened.",  # a year dates the clause: no short answer
        "Orvin does: it borders Vell.",  # a name is no echo of the question
    ],
)
def test_a_lead_that_is_no_short_answer_stays(response: str) -> None:
    assert plain(nlp()(response)).text.startswith(response.split()[0].rstrip(","))


def test_a_kept_yes_stays_before_the_unhedged_claim() -> None:
    assert plain(nlp()("Yes, I believe Orvin is the capital.")).text == "Yes, Orvin is the capital."


def test_each_character_points_back_to_the_response() -> None:
    response = "To my knowledge, Norland, whose capital is Orvin, borders Westland. It is small."
    said = plain(nlp()(response))
    first = said.text.index("Norland borders")
    start, end = said.span(first, first + len("Norland borders Westland."))
    assert response[start:end] == "Norland, whose capital is Orvin, borders Westland."
    moved = said.text.index("Norland's capital")
    start, end = said.span(moved, moved + len("Norland's capital is Orvin"))
    assert response[start:end].startswith("Norland") and response[start:end].endswith("Orvin")
    last = said.text.index("It is small.")
    assert said.span(last, last + len("It is small.")) == (response.index("It is"), len(response))
    assert not plain(nlp()("Orvin is the capital.")).changed


def test_a_capitalised_subject_the_tagger_took_for_a_verb_still_has_its_apposition() -> None:
    words = ["Brenning", ",", "born", "in", "1901", ",", "died", "in", "1980", "."]
    doc = Doc(
        nlp().vocab,
        words=words,
        pos=["VERB", "PUNCT", "VERB", "ADP", "NUM", "PUNCT", "VERB", "ADP", "NUM", "PUNCT"],
        tags=["VBG", ",", "VBN", "IN", "CD", ",", "VBD", "IN", "CD", "."],
        deps=["nsubj", "punct", "acl", "prep", "pobj", "punct", "ROOT", "prep", "pobj", "punct"],
        heads=[6, 0, 0, 2, 3, 0, 6, 6, 7, 6],
        sent_starts=[True, *[False] * 9],
    )
    splits = appositions(doc[:], 0, len(doc) - 1)
    assert [[doc[i].text for i in s.tokens] for s in splits] == [["Brenning", "born", "in", "1901"]]
    assert splits[0].inserts == ((2, "was"),)
