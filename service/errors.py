"""The requests the service refuses, each with its HTTP status and the setting whose limit it hit."""

from __future__ import annotations

from service.settings import ServiceError


class RefusedError(ServiceError):
    """A request the service refuses, with its HTTP status and the setting (if any) whose limit it hit."""

    status: int = 422

    def __init__(self, message: str, setting: str | None = None) -> None:
        super().__init__(message)
        self.setting = setting


class BadInputError(RefusedError):
    """The request's content cannot be used (unknown columns, undecodable bytes...)."""

    status = 422


class TooLargeError(RefusedError):
    """The request or upload is over a size or row limit."""

    status = 413


class BusyError(RefusedError):
    """A limit on work in flight was reached."""

    status = 429


class TimedOutError(RefusedError):
    """A request ran past `request_timeout_s`."""

    status = 504


__all__ = ["BadInputError", "BusyError", "RefusedError", "TimedOutError", "TooLargeError"]
