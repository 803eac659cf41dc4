"""Request-size limits for `/api`, enforced before a body is parsed, and the JSON shape of every refusal.

`BodyLimit` is ASGI middleware: a declared `Content-Length` over the limit is refused at once, and a
body sent without one (chunked) is counted as it arrives and refused when it passes the limit, so an
oversized request never reaches a handler or fills memory. Uploads to `POST /api/batch` get
`max_upload_bytes` (plus room for the multipart framing); other calls get `max_request_bytes`.
"""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.settings import ServiceSettings

MULTIPART_SLACK = 64 * 1024
"""Bytes of multipart framing and form fields allowed on top of `max_upload_bytes`."""


def refusal(status: int, message: str, setting: str | None) -> JSONResponse:
    """The JSON body of a refused request: what happened, and which setting to change if it is a limit."""
    body: dict[str, Any] = {"error": message, "limit": setting}
    if setting is not None:
        body["setting"] = ServiceSettings.env_name(setting)
    return JSONResponse(body, status_code=status)


class OverLimit(HTTPException):
    """A body passed its limit while being read (an `HTTPException`, so FastAPI's body parsing re-raises it)."""

    def __init__(self, message: str, setting: str) -> None:
        super().__init__(413, message)
        self.setting = setting


class BodyLimit:
    """Refuse `/api` request bodies over their size limit with 413."""

    def __init__(self, app: ASGIApp, settings: ServiceSettings) -> None:
        self.app = app
        self.settings = settings

    def _limit(self, scope: Scope) -> tuple[int, str]:
        if scope["method"] == "POST" and scope["path"].rstrip("/") == "/api/batch":
            return self.settings.max_upload_bytes + MULTIPART_SLACK, "max_upload_bytes"
        return self.settings.max_request_bytes, "max_request_bytes"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass through, counting the body of `/api` requests."""
        if scope["type"] != "http" or not scope["path"].startswith("/api"):
            await self.app(scope, receive, send)
            return
        limit, setting = self._limit(scope)
        message = (
            f"request body is over {limit:,} bytes; set {ServiceSettings.env_name(setting)} to raise the limit"
            + (", or split the file" if setting == "max_upload_bytes" else "")
        )
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await refusal(413, message, setting)(scope, receive, send)
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            msg = await receive()
            if msg["type"] == "http.request":
                received += len(msg.get("body", b""))
                if received > limit:
                    raise OverLimit(message, setting)
            return msg

        async def tracked(msg: Message) -> None:
            nonlocal started
            started = started or msg["type"] == "http.response.start"
            await send(msg)

        try:
            await self.app(scope, counted, tracked)
        except OverLimit:
            if not started:
                await refusal(413, message, setting)(scope, receive, send)


__all__ = ["MULTIPART_SLACK", "BodyLimit", "OverLimit", "refusal"]
