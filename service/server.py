"""The one server: FastAPI owns the runtime (lifespan), the JSON API under `/api`, and Gradio at `/`."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI

from service.runtime import Checker, Runtime
from service.settings import ServiceSettings, check_binding

log = logging.getLogger(__name__)


def default_checker() -> Checker:
    """The triangulation verifier on the embedded defaults (settings from `DROWZEE_VERIFY_*`)."""
    from agents.verifier.runner import Verifier
    from agents.verifier.settings import VerifierSettings

    return Verifier(VerifierSettings.load(), keep_threads=False)


def create_app(settings: ServiceSettings, make_checker: Callable[[], Checker] | None = None) -> FastAPI:
    """The FastAPI app: API routes first, then the Gradio UI mounted at `/` (UI password = the API token)."""
    import gradio as gr

    from drowzee_core import __version__
    from service.api import install_api
    from service.ui import THEME_CSS, build_ui, theme

    check_binding(settings)
    runtime = Runtime(settings, make_checker or default_checker)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        runtime.batch.resume_unfinished()
        if settings.warm:
            runtime.start_warm_up()
        try:
            yield
        finally:
            runtime.close()

    app = FastAPI(
        title="Drowzee Triangulator",
        version=__version__,
        description="Find fact-conflicting hallucinations in LLM output, with proofs. The UI is at `/`.",
        lifespan=lifespan,
    )
    app.state.runtime = runtime
    install_api(app, runtime)
    token = settings.token_value()
    auth = (lambda _user, password: password == token) if token else None
    gr.mount_gradio_app(
        app,
        build_ui(runtime),
        path="/",
        auth=auth,
        auth_message="Enter any user name and the API token (DROWZEE_API_TOKEN) as the password.",
        ssr_mode=False,
        theme=theme(),
        css=THEME_CSS,
        footer_links=["api"],
        max_file_size=settings.max_upload_bytes,
        allowed_paths=[str(settings.jobs_dir)],  # batch results and reports, for download
    )
    return app


__all__ = ["create_app", "default_checker"]
