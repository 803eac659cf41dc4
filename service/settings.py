"""The service's settings: explicit values > `DROWZEE_SERVICE_<FIELD>` environment > defaults.

Every limit is a setting, and every refusal names the setting that caused it, so a user who hits
a limit knows which variable to change. The API token is `DROWZEE_API_TOKEN` (no prefix): binding
beyond loopback without it is refused (`check_binding`).
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from drowzee_core.config import home, layered_settings
from drowzee_core.errors import DrowzeeError

ENV_PREFIX = "DROWZEE_SERVICE_"
TOKEN_ENV = "DROWZEE_API_TOKEN"


class ServiceError(DrowzeeError):
    """The service cannot start or was configured wrongly."""


class ServiceSettings(BaseModel):
    """How the service runs. Each field can be set by `DROWZEE_SERVICE_<FIELD>` (e.g. `..._MAX_ROWS=50000`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = Field(default="127.0.0.1", description="Interface to bind; beyond loopback needs a token.")
    port: int = Field(default=7860, ge=1, le=65535, description="TCP port.")
    token: SecretStr | None = Field(
        default=None, description="Bearer token every `/api` call must carry (`DROWZEE_API_TOKEN`); the UI password."
    )
    jobs_dir: Path = Field(
        default_factory=lambda: home() / "service" / "jobs",
        description="Where batch, benchmark and training jobs live.",
    )
    max_request_bytes: int = Field(
        default=1_000_000, ge=1_000, description="Largest JSON request body (`/api/verify`, `/api/prove`)."
    )
    max_upload_bytes: int = Field(default=50_000_000, ge=1_000, description="Largest batch upload.")
    max_rows: int = Field(default=100_000, ge=1, description="Most rows one batch upload may hold.")
    request_timeout_s: float = Field(
        default=300.0, gt=0, le=3600, description="Longest one `/api/verify` or `/api/prove` call may take."
    )
    workers: int = Field(default=4, ge=1, le=64, description="Pairs the API verifies at the same time.")
    warm: bool = Field(
        default=True, description="Load the verifier and check one pair at start-up, so the first check is fast."
    )
    max_pending: int = Field(
        default=64, ge=1, le=10_000, description="Verify requests admitted at once (running + queued); more get 429."
    )
    batch_concurrency: int = Field(default=2, ge=1, le=64, description="Pairs one batch job verifies at a time.")
    max_jobs: int = Field(default=4, ge=1, le=100, description="Batch jobs running at the same time; more get 429.")

    @classmethod
    def load(cls, explicit: dict[str, Any] | None = None) -> ServiceSettings:
        """Settings from explicit values (None means unset), then the environment, then defaults."""
        return layered_settings(
            cls,
            explicit,
            cls.env_name,
            lambda problems: ServiceError(f"invalid service settings ({ENV_PREFIX}* or options): {problems}"),
        )

    @staticmethod
    def env_name(field: str) -> str:
        """The environment variable that sets `field`."""
        return TOKEN_ENV if field == "token" else ENV_PREFIX + field.upper()

    def token_value(self) -> str | None:
        """The API token in clear, or None when the API is open (loopback only)."""
        return self.token.get_secret_value() if self.token is not None else None


def is_loopback(host: str) -> bool:
    """Whether `host` names only this machine (`localhost`, 127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_binding(settings: ServiceSettings) -> None:
    """Refuse to serve beyond loopback without a token (raises `ServiceError` saying what to set)."""
    if not is_loopback(settings.host) and not settings.token_value():
        raise ServiceError(
            f"refusing to bind {settings.host}: the API would be open to the network. Set {TOKEN_ENV} to a"
            " secret token (clients then send `Authorization: Bearer <token>`), or bind 127.0.0.1."
        )


__all__ = ["ENV_PREFIX", "TOKEN_ENV", "ServiceError", "ServiceSettings", "check_binding", "is_loopback"]
