"""Provenance sidecars: every file a command writes gets `OUT.meta.json` saying what produced it.

A sidecar names the registered producer (`generate.factchd`, `score.drowzee`, `kb.build`...), its
parameters and seed, the fingerprint of the KB it read, its input files with their sha256, the code
version (git commit, dirty or not), the versions of the key packages, when it was written and summary
counts. A file's sidecar sits beside it (`cases.jsonl` -> `cases.jsonl.meta.json`); an output folder
(`drowzee report --out DIR`) gets one sidecar inside it, `DIR/meta.json`, covering every file there.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

KEY_PACKAGES: tuple[str, ...] = (
    "drowzee-triangulator",
    "janus-swi",
    "pydantic",
    "typer",
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

DIR_SIDECAR = "meta.json"
"""Name of the sidecar inside an output folder."""


class Provenance(BaseModel):
    """The sidecar record: what produced a file, from what, with which code."""

    model_config = ConfigDict(extra="forbid")

    producer: str = Field(description="Registered name of the producer (e.g. `generate.factchd`).")
    params: dict[str, Any] = Field(default_factory=dict, description="The producer's parameters, JSON-ready.")
    seed: int | None = Field(default=None, description="Random seed, when the producer samples.")
    kb_fingerprint: str | None = Field(
        default=None,
        description="`KBStore.fingerprint()` of the KB used (read, or carried over from the inputs' sidecars).",
    )
    inputs: dict[str, str] = Field(default_factory=dict, description="Input file path -> its sha256.")
    code_version: str | None = Field(default=None, description="Git commit of the code, when run from a checkout.")
    dirty: bool | None = Field(default=None, description="Whether the checkout had uncommitted changes.")
    packages: dict[str, str] = Field(default_factory=dict, description="Versions of the key dependencies.")
    created: datetime = Field(description="When the file was written (UTC).")
    counts: dict[str, Any] = Field(default_factory=dict, description="Summary counts of what was written.")
    history: list[Provenance] = Field(
        default_factory=list,
        description="Earlier writes of the same file, oldest first (a KB that `kb load` added to); "
        "each without its own history.",
    )


def code_version(root: Path | None = None) -> tuple[str | None, bool | None]:
    """The git commit of the checkout holding this package and whether it is dirty (None, None outside git).

    Asked of git once per process and folder (two subprocesses); every later call, e.g. one per verdict,
    reads the answer kept then.
    """
    return _git_version(root or Path(__file__).resolve().parents[2])


@functools.cache
def _git_version(root: Path) -> tuple[str | None, bool | None]:
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


def code_digest(root: Path, paths: Sequence[Path]) -> str:
    """A digest of files and of the .py / .pl / .toml files under folders, by path (relative to `root`) and content."""
    files: set[Path] = set()
    for at in paths:
        files |= {f for f in at.rglob("*") if f.suffix in (".py", ".pl", ".toml")} if at.is_dir() else {at}
    digest = hashlib.sha256()
    for f in sorted(x for x in files if x.is_file()):
        digest.update(f.relative_to(root).as_posix().encode())
        digest.update(f.read_bytes())
    return digest.hexdigest()[:16]


def package_versions(names: tuple[str, ...] = KEY_PACKAGES) -> dict[str, str]:
    """Installed versions of `names` (missing packages are left out)."""
    out: dict[str, str] = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def file_sha256(path: Path) -> str:
    """The sha256 of a file's bytes (hex)."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def input_files(paths: Iterable[Path | None]) -> dict[str, str]:
    """Input path -> sha256 for each existing file of `paths` (None entries are skipped)."""
    return {str(p): file_sha256(p) for p in paths if p is not None and p.is_file()}


def upstream_fingerprint(paths: Iterable[Path]) -> str | None:
    """The KB fingerprint the inputs' sidecars agree on (None when they name none, or different ones)."""
    found = {rec.kb_fingerprint for p in paths if (rec := read_sidecar(p)) is not None and rec.kb_fingerprint}
    return found.pop() if len(found) == 1 else None


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
    """`OUT.meta.json` beside a file; `OUT/meta.json` inside an output folder."""
    return out / DIR_SIDECAR if out.is_dir() else out.with_name(out.name + ".meta.json")


def write_sidecar(out: Path, record: Provenance) -> Path:
    """Write the sidecar of `out` atomically (stamped with the time of writing) and return its path."""
    path = sidecar_path(out)
    record = record.model_copy(update={"created": datetime.now(UTC)})
    text = json.dumps(record.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    atomic_write_text(path, text)
    return path


def read_sidecar(out: Path) -> Provenance | None:
    """The sidecar of `out`, or None when it has none."""
    path = sidecar_path(out)
    if not path.exists():
        return None
    return Provenance.model_validate_json(path.read_text(encoding="utf-8"))


def atomic_write_text(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file, so a failed write leaves any earlier file intact."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        make_readable(Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def make_readable(path: Path) -> None:
    """Give a file made by `mkstemp` (mode 0600) the usual mode for new files (0666 minus the umask)."""
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(path, 0o666 & ~mask)


__all__ = [
    "DIR_SIDECAR",
    "KEY_PACKAGES",
    "Provenance",
    "atomic_write_text",
    "code_digest",
    "code_version",
    "file_sha256",
    "input_files",
    "make_readable",
    "package_versions",
    "provenance",
    "read_sidecar",
    "sidecar_path",
    "upstream_fingerprint",
    "write_sidecar",
]
