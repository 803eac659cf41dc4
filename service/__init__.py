"""The service: one FastAPI app with the JSON API under `/api` and the Gradio UI at `/` (`create_app`)."""

from __future__ import annotations

from drowzee_core import __version__
from service.errors import BusyError, TimedOutError
from service.runtime import ProveRequest, ProveResponse, Runtime
from service.server import create_app, default_checker
from service.settings import ServiceError, ServiceSettings, check_binding

__all__ = [
    "BusyError",
    "ProveRequest",
    "ProveResponse",
    "Runtime",
    "ServiceError",
    "ServiceSettings",
    "TimedOutError",
    "__version__",
    "check_binding",
    "create_app",
    "default_checker",
]
