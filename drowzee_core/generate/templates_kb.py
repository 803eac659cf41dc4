"""Yes/no question forms from the relation catalog's templates, and the answers they imply (pure).

Drowzee asks each derived fact in a positive form and in mutated forms whose answer flips: the
negated statement ("Is it true that X is not Y?") and, where the catalog lists one, a statement with
an antonym ("Is it true that X lies outside Y?").
"""

from __future__ import annotations

from collections.abc import Sequence

from drowzee_core.kb.model import RelationSpec
from drowzee_core.kb.template_regex import fill
from drowzee_core.kb.wording import lower_lead
from drowzee_core.records.enums import ProofStatus, YesNo

FORMS: tuple[str, ...] = ("positive", "negated", "antonym")


def _clause(template: str, s: str, o: str) -> str:
    """A statement template as a clause inside a question: no final period, lower-cased article."""
    text = fill(template, s, o).rstrip(".")
    if not template.startswith(("{s}", "{o}")) and text[:1].isupper():
        text = text[0].lower() + text[1:]
    return text


def question(spec: RelationSpec, s: str, o: str, form: str, antonym: int = 0) -> str:
    """The question of `form` about (s, spec, o).

    Args:
        spec: The relation's catalog entry.
        s: Subject label.
        o: Object label.
        form: positive, negated or antonym.
        antonym: Which of the relation's antonym templates to use (form antonym only).

    Raises:
        ValueError: The form is unknown, or the relation has no antonym template.

    """
    if form == "positive":
        return fill(spec.question, s, o)
    if form == "negated":
        return f"Is it true that {_clause(spec.negative, s, o)}?"
    if form == "antonym":
        if not spec.antonyms:
            raise ValueError(f"relation {spec.name!r} has no antonym template")
        return f"Is it true that {_clause(spec.antonyms[antonym % len(spec.antonyms)], s, o)}?"
    raise ValueError(f"unknown question form {form!r}; expected one of {FORMS}")


def answer(status: ProofStatus | str, form: str) -> YesNo:
    """Yes or No for a question of `form` about a fact whose proof status is `status`.

    A supported fact answers Yes to its positive form; a contradicted one answers No; mutated
    forms flip the answer.
    """
    if status not in (ProofStatus.SUPPORTED, ProofStatus.CONTRADICTED):
        raise ValueError(f"only proved facts make questions, got status {str(status)!r}")
    if form not in FORMS:
        raise ValueError(f"unknown question form {form!r}; expected one of {FORMS}")
    true_fact = status == ProofStatus.SUPPORTED
    return YesNo.YES if true_fact == (form == "positive") else YesNo.NO


def clause(sentence: str) -> str:
    """A finished sentence as a clause after "that": no final period, a leading function word lower-cased."""
    return lower_lead(sentence.rstrip("."))


def join_names(items: Sequence[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"


def parse_number(text: str) -> float | None:
    """A label as a number ('1,234' -> 1234.0), or None."""
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def format_number(value: float) -> str:
    """1234.0 -> '1234'; 2.5 -> '2.5'."""
    return f"{int(value)}" if value == int(value) else f"{value:g}"
