"""Provenance sidecars: every file a command writes gets `OUT.meta.json` saying what produced it."""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

KEY_PACKAGES: tuple[str, ...] = (
    "drowzee-triangulator",
    "janus-swi",
    "pydantic",
    "transformers",
    "peft",
    "torch",
    "sentence-transformers",
    "langchain-openai",
    "langgraph",
    "spacy",
    "py-rouge",
    "networkx",
)
"""Dependencies whose versions a sidecar records (those not installed are left out)."""


class Provenance(BaseModel):
    """The sidecar record: what produced a file, from what, with which code."""

    model_config = ConfigDict(extra="forbid")

    producer: str = Field(description="Registered name of the producer (e.g. `generate.factchd`).")
    params: dict[str, Any] = Field(default_factory=dict, description="The producer's parameters, JSON-ready.")
    seed: int | None = Field(default=None, description="Random seed, when the producer samples.")
    kb_fingerprint: str | None = Field(default=None, description="`KBStore.fingerprint()` of the KB used.")
    inputs: dict[str, str] = Field(default_factory=dict, description="Input file path -> its sha256.")
    code_version: str | None = Field(default=None, description="Git commit of the code, when run from a checkout.")
    dirty: bool | None = Field(default=None, description="Whether the checkout had uncommitted changes.")
    packages: dict[str, str] = Field(default_factory=dict, description="Versions of the key dependencies.")
    created: datetime = Field(description="When the file was written (UTC).")
    counts: dict[str, Any] = Field(default_factory=dict, description="Summary counts of what was written.")


def code_version(root: Path | None = None) -> tuple[str | None, bool | None]:
    """The git commit of the checkout holding this package and whether it is dirty (None, None outside git)."""
    root = root or Path(__file__).resolve().parents[2]
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=True, timeout=10
        ).stdout.strip()
        status = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None, None
    return commit or None, bool(status.strip())


def package_versions(names: tuple[str, ...] = KEY_PACKAGES) -> dict[str, str]:
    """Installed versions of `names` (missing packages are left out)."""
    out: dict[str, str] = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def provenance(
    producer: str,
    params: dict[str, Any] | None = None,
    *,
    seed: int | None = None,
    kb_fingerprint: str | None = None,
    inputs: dict[str, str] | None = None,
    counts: dict[str, Any] | None = None,
) -> Provenance:
    """A provenance record for a file written now by this code."""
    commit, dirty = code_version()
    return Provenance(
        producer=producer,
        params=params or {},
        seed=seed,
        kb_fingerprint=kb_fingerprint,
        inputs=inputs or {},
        code_version=commit,
        dirty=dirty,
        packages=package_versions(),
        created=datetime.now(UTC),
        counts=counts or {},
    )


def sidecar_path(out: Path) -> Path:
    """`OUT.meta.json` beside `out`."""
    return out.with_name(out.name + ".meta.json")


def write_sidecar(out: Path, record: Provenance) -> Path:
    """Write the sidecar of `out` and return its path."""
    path = sidecar_path(out)
    path.write_text(json.dumps(record.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def read_sidecar(out: Path) -> Provenance | None:
    """The sidecar of `out`, or None when it has none."""
    path = sidecar_path(out)
    if not path.exists():
        return None
    return Provenance.model_validate_json(path.read_text(encoding="utf-8"))


__all__ = [
    "KEY_PACKAGES",
    "Provenance",
    "code_version",
    "package_versions",
    "provenance",
    "read_sidecar",
    "sidecar_path",
    "write_sidecar",
]
