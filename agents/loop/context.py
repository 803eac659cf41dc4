"""What every loop node receives at run time (never checkpointed): the run folder and the services.

The services are callables so that tests pass fakes (a scripted target, a fake verifier, a fake
scorer, a generator without Prolog); `default_context` builds the real ones: the generator registry,
the target role through `drowzee_core.llm` (answers cached by `run_cases`), the triangulation
`Verifier`, and the registered scorers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drowzee_core.config import home

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from agents.batch.engine import Verify
    from agents.loop.state import LoopConfig
    from drowzee_core.generate.registry import Generated, GenerateJob, Resources
    from drowzee_core.llm.runner import CacheIdentity

Rows = list[dict[str, Any]]
Progress = Callable[[int], None]
Track = Callable[[str, int | None], AbstractContextManager[Progress]]
Score = Callable[[str, Rows, Progress | None], tuple[Rows, dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class Target:
    """The model under test: its client, the identity its answers are cached under, and how it is named."""

    client: BaseChatModel
    identity: CacheIdentity
    name: str
    described: dict[str, Any] = field(default_factory=dict)
    """The resolved role for the provenance (never an API key)."""


@contextmanager
def _no_progress(what: str, total: int | None) -> Iterator[Progress]:
    yield lambda done: None


@dataclass(frozen=True, slots=True)
class LoopContext:
    """The run folder and the services the nodes call."""

    out: Path
    generate: Callable[[str, GenerateJob], Generated]
    target: Callable[[LoopConfig], Target]
    verifier: Callable[[LoopConfig], AbstractContextManager[Verify]]
    score: Score
    track: Track = _no_progress
    answer_cache: Path = field(default_factory=lambda: home() / "cache" / "answers.sqlite")
    params: dict[str, Any] = field(default_factory=dict)
    """The command's parameters, recorded in every sidecar."""


def registry_generate(resources: Resources) -> Callable[[str, GenerateJob], Generated]:
    """Run registered generators with `resources`."""

    def generate(name: str, job: GenerateJob) -> Generated:
        from drowzee_core.generate.registry import GENERATORS

        return GENERATORS.get(name).run(job, resources)

    return generate


def role_target(cfg: LoopConfig) -> Target:
    """The target role (or `--model` at `--base-url`) as a chat client with its cache identity."""
    from drowzee_core.llm.roles import chat_model, load_role
    from drowzee_core.llm.runner import role_identity

    role = (
        load_role("target", {"model": cfg.model, "base_url": cfg.base_url})
        if cfg.model
        else load_role(cfg.target or "target")
    )
    client = chat_model(role)
    return Target(client, role_identity(role, client), role.model, role.model_dump(mode="json", exclude={"api_key"}))


@contextmanager
def triangulation(cfg: LoopConfig) -> Iterator[Verify]:
    """The triangulation verifier over the run's KB, as a `Verify` callable."""
    from agents.verifier.runner import Verifier
    from agents.verifier.settings import VerifierSettings

    settings = VerifierSettings.load({"kb": cfg.kb, "policy": cfg.policy})
    with Verifier(settings) as verifier:
        yield verifier.verify


def registered_score(name: str, rows: Rows, progress: Progress | None) -> tuple[Rows, dict[str, Any]]:
    """Run a registered scorer with its default options."""
    from drowzee_core.oracles.registry import SCORERS, ScoreOptions

    return SCORERS.get(name)(rows, ScoreOptions(), progress)


def default_context(
    out: Path, resources: Resources, track: Track | None = None, params: dict[str, Any] | None = None
) -> LoopContext:
    """The real services: generators with `resources`, the target role, the verifier and the scorers."""
    return LoopContext(
        out=out,
        generate=registry_generate(resources),
        target=role_target,
        verifier=triangulation,
        score=registered_score,
        track=track or _no_progress,
        params=params or {},
    )


__all__ = ["LoopContext", "Progress", "Rows", "Score", "Target", "Track", "default_context"]
