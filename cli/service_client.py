"""`drowzee verify` through a running service: the same verifier, already warm, answers in a fraction of a second.

A pair goes to the service at `--service URL` (or `DROWZEE_SERVICE_URL`; `make run`'s address,
`http://127.0.0.1:7860`, when neither is set) only when its `/healthz` says it is ready and its verifier
digest (`agents.verifier.identity`) equals the one this process would build: same KB file, sources,
policies, roles, embeddings and version. Otherwise the pair is checked here, and the reason is said on
stderr unless no service answered at the default address. A service asked for by name that cannot answer
is an error. `--local` (or `DROWZEE_SERVICE_URL=off`) never asks a service. The API token, when the
service has one, is read from `DROWZEE_API_TOKEN`.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.verdict import Verdict, VerifyRequest

log = logging.getLogger(__name__)

DEFAULT_URL = "http://127.0.0.1:7860"
URL_ENV = "DROWZEE_SERVICE_URL"
TOKEN_ENV = "DROWZEE_API_TOKEN"
OFF = {"off", "none", "local", "0", "false"}
HEALTH_TIMEOUT_S = 1.0
BUSY = {429, 503, 504}
"""Statuses after which a service found at the default address leaves the pair to this process."""


@dataclass(frozen=True)
class Target:
    """Where to ask: the service's base URL, and whether the user named it (then failures are errors)."""

    url: str
    named: bool


def target(option: str | None, local: bool) -> Target | None:
    """The service to try: `--service`, else `DROWZEE_SERVICE_URL`, else the default address; None with --local."""
    if local:
        return None
    if option:
        return Target(option.rstrip("/"), named=True)
    env = os.environ.get(URL_ENV, "").strip()
    if env.lower() in OFF:
        return None
    return Target(env.rstrip("/"), named=True) if env else Target(DEFAULT_URL, named=False)


class NotUsableError(Exception):
    """The service cannot take this pair (the message says why)."""


def _headers() -> dict[str, str]:
    token = os.environ.get(TOKEN_ENV, "").strip()
    return {"Authorization": f"Bearer {token}"} if token else {}


def _usable(client: Any, url: str, settings: Any) -> None:
    """Raise `NotUsableError` unless the service at `url` is ready and runs the verifier `settings` make.

    The digest of `settings` is computed only once a ready service answers (no cost when none runs).
    """
    import httpx

    from agents.verifier.identity import verifier_identity

    try:
        health = client.get(f"{url}/healthz", timeout=HEALTH_TIMEOUT_S).json()
    except (httpx.HTTPError, ValueError) as exc:
        raise NotUsableError(f"no service answers at {url} ({type(exc).__name__})") from exc
    if not isinstance(health, dict) or health.get("status") != "ok":
        raise NotUsableError(f"{url}/healthz does not answer as a Drowzee service")
    if not health.get("ready"):
        raise NotUsableError(f"the service at {url} is not ready yet (warm-up: {health.get('warm_up', 'unknown')})")
    if health.get("verifier") != verifier_identity(settings):
        raise NotUsableError(
            f"the service at {url} runs a verifier with other settings (KB, sources, roles or version) than this"
            " command asks for"
        )


def verify_remote(
    req: VerifyRequest, settings: Any, where: Target, timeout_s: float, *, transport: Any = None
) -> Verdict | None:
    """The service's verdict for `req`, or None when the pair must be checked here.

    Args:
        req: The pair.
        settings: The `VerifierSettings` this command would run with.
        where: The service to ask.
        timeout_s: How long to wait for the verdict.
        transport: An `httpx` transport to use instead of the network (tests).

    Returns:
        The verdict, or None when the service cannot take the pair (said on stderr when it matters).

    Raises:
        DrowzeeError: A service the user named cannot answer, or refused the pair.

    """
    import httpx

    with httpx.Client(headers=_headers(), transport=transport) as client:
        try:
            _usable(client, where.url, settings)
        except NotUsableError as exc:
            if where.named:
                raise DrowzeeError(f"{exc}; run without --service (and {URL_ENV}) to check the pair here") from exc
            if "no service answers" not in str(exc):
                log.warning("%s: checking the pair here", exc)
            return None
        try:
            answer = client.post(f"{where.url}/api/verify", json=req.model_dump(mode="json"), timeout=timeout_s)
        except httpx.HTTPError as exc:
            raise DrowzeeError(f"the service at {where.url} did not answer ({exc}); rerun with --local") from exc
    if answer.status_code in BUSY and not where.named:
        log.warning("the service at %s is busy (%s): checking the pair here", where.url, answer.status_code)
        return None
    if answer.status_code != 200:
        try:
            detail = answer.json().get("detail", answer.text)
        except ValueError:
            detail = answer.text
        raise DrowzeeError(f"the service at {where.url} refused the pair ({answer.status_code}): {detail}")
    log.info("verdict from the service at %s", where.url)
    return Verdict.model_validate(answer.json())


__all__ = ["DEFAULT_URL", "TOKEN_ENV", "URL_ENV", "Target", "target", "verify_remote"]
