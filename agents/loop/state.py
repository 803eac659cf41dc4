"""The closed loop's typed state: the run's configuration, the artefacts each node writes, input and output.

The state is small on purpose: every node writes its rows to a file in the run folder and puts only an
`Artefact` (path, row count, counts) into the state, so the SQLite checkpoint after each node stays tiny
and a resumed run reads the rows back from the files.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field, model_validator

from drowzee_core.errors import DrowzeeError

Evidence = Literal["none", "facts"]
Source = Literal["target", "endpoint", "answers", "pairs"]

KINDS_ASKED: tuple[str, ...] = ("drowzee-qa", "temporal", "erbench")
"""Generators whose cases carry a prompt for the model under test."""
KINDS_PAIRS: tuple[str, ...] = ("factchd",)
"""Generators whose cases are Query-Response pairs that carry their own response."""


class LoopError(DrowzeeError):
    """The loop cannot run as asked; the message says what to change."""


class LoopConfig(BaseModel):
    """What one loop run does; stored in the first checkpoint, so a resumed run must ask for the same."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    generator: str = Field(description="Registered generator: drowzee-qa, temporal, erbench or factchd.")
    n: int | None = Field(default=None, ge=1, description="Cases to generate (not with `answers`).")
    seed: int = Field(default=0, description="Generator seed; also the seed of the `limit` sample of recorded answers.")
    rules: tuple[str, ...] | None = Field(default=None, description="Rule families / operators / patterns / types.")
    domains: tuple[str, ...] | None = Field(default=None, description="KB domains (drowzee-qa, factchd).")
    schema_path: str | None = Field(default=None, description="erbench: the database schema TOML.")
    data: str | None = Field(default=None, description="erbench: the folder the schema's files are relative to.")
    kb: str | None = Field(default=None, description="KB file (None: the default KB).")
    target: str | None = Field(default=None, description="Model role asked (`target`).")
    model: str | None = Field(default=None, description="Model name at `base_url` (with `base_url`).")
    base_url: str | None = Field(default=None, description="OpenAI-compatible endpoint of `model`.")
    answers: str | None = Field(
        default=None, description="Recorded answers: Drowzee's history.json or `drowzee run-llm` JSONL."
    )
    evidence: Evidence = Field(default="none", description="`facts`: give the verifier each case's ground-truth facts.")
    limit: int | None = Field(default=None, ge=1, description="Only N cases (a seeded sample of recorded answers).")
    policy: str | None = Field(default=None, description="Verdict Manager policy (None: the verifier's default).")
    concurrency: int = Field(default=1, ge=1, le=64, description="Pairs verified at once; prompts asked at once.")
    mitigate: Literal["none", "rag"] = Field(
        default="none", description="`rag`: re-ask the target with the facts the verifier used, and score again."
    )

    @model_validator(mode="after")
    def _combination(self) -> LoopConfig:
        if self.generator not in KINDS_ASKED + KINDS_PAIRS:
            known = ", ".join(KINDS_ASKED + KINDS_PAIRS)
            raise LoopError(f"--generator {self.generator!r} cannot run in the loop; use one of {known}")
        given = [
            name for name, v in (("--target", self.target), ("--model", self.model), ("--answers", self.answers)) if v
        ]
        if self.generator in KINDS_PAIRS:
            if given or self.base_url:
                raise LoopError(
                    f"{self.generator} pairs carry their own responses; drop {', '.join(given) or '--base-url'}"
                )
        elif len(given) != 1:
            shown = " and ".join(given) if given else "none"
            raise LoopError(
                f"give exactly one of --target ROLE, --model M --base-url U or --answers FILE (got {shown})"
            )
        if bool(self.model) != bool(self.base_url):
            raise LoopError("--model and --base-url go together: the model name and the endpoint that serves it")
        if self.answers and self.n is not None:
            raise LoopError("--n does not apply to --answers (the file holds the cases); use --limit to sample it")
        if not self.answers and self.n is None:
            raise LoopError("--n is required unless the answers come from --answers FILE")
        if self.mitigate == "rag" and (self.answers or self.generator in KINDS_PAIRS):
            raise LoopError(
                "--mitigate rag re-asks the model under test: it needs --target ROLE or --model M --base-url U,"
                " not recorded answers or pairs"
            )
        if self.generator == "erbench" and not self.schema_path and not self.answers:
            raise LoopError("--generator erbench needs --schema S.toml (see docs/erbench/)")
        return self

    @property
    def source(self) -> Source:
        """Where the answers come from."""
        if self.answers:
            return "answers"
        if self.model:
            return "endpoint"
        if self.generator in KINDS_PAIRS:
            return "pairs"
        return "target"

    @property
    def kind(self) -> str:
        """The record kind the scorer sees (the generator's name)."""
        return self.generator


class Artefact(BaseModel):
    """A file a node wrote into the run folder, and what it holds."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str = Field(description="The file, in the run folder.")
    rows: int = Field(default=0, description="Rows written (0 for a non-JSONL file).")
    counts: dict[str, Any] = Field(default_factory=dict, description="Summary counts the node reports.")


class LoopInput(TypedDict):
    """What the loop graph is started with."""

    config: LoopConfig


class LoopOutput(TypedDict, total=False):
    """What the loop graph returns: every artefact."""

    cases: Artefact
    answers: Artefact
    verdicts: Artefact
    scores: Artefact
    mitigation: Artefact
    report: Artefact


class LoopState(TypedDict, total=False):
    """The loop's state: the configuration, each node's artefact, and the nodes finished in order."""

    config: LoopConfig
    kb_fingerprint: str | None
    cases: Artefact
    answers: Artefact
    verdicts: Artefact
    scores: Artefact
    mitigation: Artefact
    report: Artefact
    finished: Annotated[list[str], operator.add]


__all__ = [
    "KINDS_ASKED",
    "KINDS_PAIRS",
    "Artefact",
    "Evidence",
    "LoopConfig",
    "LoopError",
    "LoopInput",
    "LoopOutput",
    "LoopState",
    "Source",
]
