"""The verifier's runtime settings: explicit values > `DROWZEE_VERIFY_<FIELD>` environment > defaults."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.config import default_kb_path, layered_settings
from drowzee_core.errors import DrowzeeError
from drowzee_core.records.verdict import UndecidedPolicy

ENV_PREFIX = "DROWZEE_VERIFY_"
Policy = Literal["calibrated", "strict", "majority"]
POLICIES: tuple[Policy, ...] = ("calibrated", "strict", "majority")


class SettingsError(DrowzeeError):
    """A verifier setting is invalid."""


class VerifierSettings(BaseModel):
    """How the verifier runs. Every field can be set by `DROWZEE_VERIFY_<FIELD>` (e.g. `..._POLICY=strict`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kb: Path = Field(default_factory=default_kb_path, description="KB file the claims are proved on.")
    policy: Policy = Field(default="calibrated", description="Verdict Manager policy without a capable manager.")
    undecided: UndecidedPolicy = Field(
        default=UndecidedPolicy.LEAN,
        description="Label of an undecided verdict: `lean` (the models' lean), `factual` or `non-factual`;"
        " its decision stays `undecided` and its confidence at most 0.70.",
    )
    calibration: Path | None = Field(
        default=None, description="Manager calibration (`drowzee verifier fit` output); None: the shipped one."
    )
    use_kb: bool = Field(default=True, description="Run the KB check.")
    use_seeker: bool = Field(default=True, description="Run the Truth Seeker.")
    use_guardian: bool = Field(default=True, description="Run the Truth Guardian.")
    web: bool = Field(default=False, description="Let the Seeker search the web (DuckDuckGo); needs a network.")
    corpus: Path | None = Field(default=None, description="Folder of user documents the Seeker searches.")
    kb_corpus: bool = Field(default=True, description="Let the Seeker search the KB's verbalized facts.")
    top_k: int = Field(default=5, ge=1, le=50, description="Evidence items per search.")
    learned_reader: bool = Field(
        default=True,
        description="Read sentences no catalog pattern reads with the shipped relation model"
        " (agents/reading/candidates/learned.py).",
    )
    extractor: Literal["auto", "templates", "llm"] = Field(
        default="auto",
        description="Claims beyond the catalog templates: `llm` asks the extractor role; `auto` does so only"
        " when that role points at a remote model.",
    )
    judge_role: Literal["judge", "seeker"] = Field(
        default="judge", description="Role whose judge scores evidence: the trained `judge`, or the `seeker` LLM."
    )
    evidence_reading: Literal["auto", "embedded", "llm"] = Field(
        default="auto",
        description="Who reads each claim against supplied evidence: `embedded` (agents/reading), `llm` (the"
        " judge's model, else the seeker role's), `auto`: llm only when the judge is an LLM (`judge_role`"
        " `seeker`, or the judge role pointed at an endpoint). The embedded reader reads what a model fails on.",
    )
    manager: Literal["auto", "llm", "aggregate"] = Field(
        default="auto",
        description="`llm`: FactCHD arbitration by the manager role; `aggregate`: the policy; `auto`: llm"
        " only when the manager role points at a remote model.",
    )
    roles: Path | None = Field(default=None, description="Role TOML file (see `drowzee models`).")
    timeout_s: float = Field(default=120.0, gt=0, le=3600, description="Per model call, in seconds.")
    seed: int = Field(default=0, description="Seed recorded with every verdict.")
    cache: bool = Field(
        default=True,
        description="Cache model, judge, proof and web calls in SQLite (`--no-cache`: nothing is read or written).",
    )
    cache_path: Path | None = Field(
        default=None,
        description="Call cache file; None is `<home>/cache/calls.sqlite` (see `agents/verifier/cache.py`).",
    )

    @classmethod
    def load(cls, explicit: dict[str, Any] | None = None) -> VerifierSettings:
        """Settings from explicit values (None means unset), then the environment, then defaults."""
        return layered_settings(
            cls,
            explicit,
            lambda name: ENV_PREFIX + name.upper(),
            lambda problems: SettingsError(f"invalid verifier settings ({ENV_PREFIX}* or options): {problems}"),
        )


__all__ = ["ENV_PREFIX", "POLICIES", "Policy", "SettingsError", "VerifierSettings"]
