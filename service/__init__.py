"""The service: one FastAPI app with the JSON API under `/api` and the Gradio UI at `/` (`create_app`)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("drowzee-triangulator")
except PackageNotFoundError:  # running from a tree that was never installed
    __version__ = "0.0.0"

from service.runtime import BusyError, ProveRequest, ProveResult, Runtime, TimedOutError
from service.server import create_app, default_checker
from service.settings import ServiceError, ServiceSettings, check_binding

__all__ = [
    "BusyError",
    "ProveRequest",
    "ProveResult",
    "Runtime",
    "ServiceError",
    "ServiceSettings",
    "TimedOutError",
    "__version__",
    "check_binding",
    "create_app",
    "default_checker",
]
