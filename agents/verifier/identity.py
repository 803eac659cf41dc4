"""Which verifier a process runs: one digest of everything that decides a verdict besides the pair.

Two processes with the same digest give the same verdict for the same request (up to model
nondeterminism a local server does not have): the settings (KB file, sources, policies, cache), each
role's model, endpoint and generation parameters, the embedding backend, the package version and the
code itself (the size and modification time of every file of the packages, prompts and shipped
adapters, so a server started before an edit is not taken for the edited code). The
service reports its digest on `/healthz` (no paths or keys leave the server, only the digest), and
`drowzee verify` hands a pair to a running service only when the digests are equal.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from agents.verifier.settings import VerifierSettings
from drowzee_core.errors import DrowzeeError

CODE_FOLDERS = ("agents", "drowzee_core", "prompts", "finetune/adapters")


def code_stamp(root: Path | None = None) -> str:
    """A digest of the (path, size, mtime) of every file under `CODE_FOLDERS` of the checkout (about 5 ms)."""
    base = root or Path(__file__).resolve().parents[2]
    h = hashlib.sha256()
    for folder in CODE_FOLDERS:
        for path in sorted((base / folder).rglob("*")):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            st = path.stat()
            h.update(f"{path.relative_to(base)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def verifier_identity(settings: VerifierSettings) -> str:
    """The digest (sha256, hex) of `settings`, the roles they load, the embeddings backend and the version."""
    from drowzee_core import __version__
    from drowzee_core.llm.embeddings import backend_name
    from drowzee_core.llm.roles import ROLES, load_role

    dumped: dict[str, Any] = settings.model_dump(mode="json")
    dumped["kb"] = str(settings.kb.expanduser().resolve())
    for key in ("corpus", "roles", "calibration", "cache_path"):
        value = getattr(settings, key)
        dumped[key] = None if value is None else str(value.expanduser().resolve())
    roles: dict[str, Any] = {}
    for name in ROLES:
        try:
            roles[name] = load_role(name, config=settings.roles).model_dump(mode="json", exclude={"api_key"})
        except (
            DrowzeeError,
            ValueError,
        ) as exc:  # a role this verifier never calls may be misconfigured: same error, same digest
            roles[name] = {"error": str(exc)}
    whole = {
        "settings": dumped,
        "roles": roles,
        "embeddings": backend_name(),
        "version": __version__,
        "code": code_stamp(),
    }
    return hashlib.sha256(json.dumps(whole, sort_keys=True).encode("utf-8")).hexdigest()


__all__ = ["CODE_FOLDERS", "code_stamp", "verifier_identity"]
