"""Sentences for relations known only by their labels (`drowzee_core.kb.label_grammar`), pure."""

from __future__ import annotations

import pytest

from drowzee_core.kb.label_grammar import LabelForm, label_form, label_wording
from drowzee_core.kb.model import RelationCategory, RelationSpec


@pytest.mark.parametrize(
    ("label", "form", "positive", "negative"),
    [
        ("director", LabelForm.NOUN, "The director of S is O.", "The director of S is not O."),
        ("distributed by", LabelForm.PASSIVE, "S is distributed by O.", "S is not distributed by O."),
        (
            "located in the county",
            LabelForm.PASSIVE,
            "S is located in the county O.",
            "S is not located in the county O.",
        ),
        ("member of", LabelForm.PREDICATE_NOUN, "S is a member of O.", "S is not a member of O."),
        ("part of", LabelForm.PREDICATE_NOUN, "S is part of O.", "S is not part of O."),
        ("follows", LabelForm.VERB, "S follows O.", "It is not the case that S follows O."),
        ("prize won", LabelForm.OBJECT_PARTICIPLE, "S won the prize O.", "It is not the case that S won the prize O."),
        ("place of birth", LabelForm.NOUN, "The place of birth of S is O.", "The place of birth of S is not O."),
    ],
)
def test_a_label_is_worded_by_its_form(label: str, form: LabelForm, positive: str, negative: str) -> None:
    said = label_wording(label)
    assert label_form(label) == form
    assert (said.positive.format(s="S", o="O"), said.negative.format(s="S", o="O")) == (positive, negative)


def test_a_generic_relation_takes_its_templates_and_family_from_its_label() -> None:
    spec = RelationSpec.generic("shipped_by", "shipped by")
    assert spec.positive == "{s} is shipped by {o}." and spec.category == RelationCategory.PASSIVE_VERB
    assert RelationSpec.generic("keeper").question == "Is the keeper of {s} {o}?"
