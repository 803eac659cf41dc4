"""The closed vocabularies that records share: proof status, labels, grounding, yes/no answers, splits."""

from __future__ import annotations

from enum import StrEnum


class ProofStatus(StrEnum):
    """What the logic engine says of one claim.

    `unknown` is the engine's answer when it can neither prove nor refute a claim (open world);
    `closed_world` marks a claim that a *generator* takes as false only because the KB lacks it.
    """

    SUPPORTED = "supported"
    CONTRADICTED = "contradicted"
    UNKNOWN = "unknown"
    CLOSED_WORLD = "closed_world"


class Label(StrEnum):
    """FactCHD's response labels (the positive class of FactCls is NON-FACTUAL)."""

    FACTUAL = "FACTUAL"
    NON_FACTUAL = "NON-FACTUAL"


class Grounding(StrEnum):
    """How a generated label is grounded.

    `proved`: every claim that decides the label was proved or refuted by Prolog;
    `closed_world`: the label rests on a claim's absence from the KB;
    `computed`: the label was computed in Python from proved facts (comparisons, set arithmetic).
    """

    PROVED = "proved"
    CLOSED_WORLD = "closed_world"
    COMPUTED = "computed"


class YesNo(StrEnum):
    """Gold answers of yes/no questions."""

    YES = "Yes"
    NO = "No"


class Split(StrEnum):
    """Entity-disjoint splits (see `drowzee_core.generate.splits`)."""

    TRAIN = "train"
    DEV = "dev"
    TEST = "test"


class TimeWord(StrEnum):
    """How a claim is put in time relative to a year ("until 2001"): evaluated over a fact's dated periods."""

    AT = "at"
    """It holds in the year ("in 1995", "during", "as of")."""
    UNTIL = "until"
    """It held up to the year and then stopped ("until 2001", "till")."""
    SINCE = "since"
    """It began in the year ("since 1999")."""
    BEFORE = "before"
    """It held at some time before the year."""
    BY = "by"
    """It held at some time before or in the year ("by 2005")."""
    AFTER = "after"
    """It held at some time after the year."""
    DECADE = "in the decade"
    """It held at some time in the ten years from the year ("in the 1730s": the year is 1730)."""


__all__ = ["Grounding", "Label", "ProofStatus", "Split", "TimeWord", "YesNo"]
