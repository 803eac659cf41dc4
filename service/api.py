"""The JSON API under `/api` (documented at `/docs`) and `/healthz`.

Every refusal is a JSON body `{"error": what happened and what to do, "limit": the setting, "setting":
its environment variable}` with a 4xx/5xx status: 401 (token), 404 (job), 413 (size / rows), 422
(unusable input), 429 (too much in flight), 504 (too slow). With `DROWZEE_API_TOKEN` set, every
`/api` call needs `Authorization: Bearer <token>`.
"""

from __future__ import annotations

import secrets
import uuid
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, File, Form, Header, HTTPException, Query, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, Field

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.verdict import Verdict, VerifyRequest
from service.errors import RefusedError, TooLargeError
from service.jobs import BatchJob, BatchStatus
from service.kbload import LoadResult, load_kb_file
from service.limits import BodyLimit, OverLimit, refusal
from service.runtime import ProveRequest, ProveResponse, Runtime
from service.settings import ServiceSettings

CHUNK = 1 << 20


class UnauthorizedError(RefusedError):
    """Missing or wrong API token."""

    status = 401


class BatchCreated(BaseModel):
    """A batch job that was accepted and started."""

    id: str = Field(description="Job id.")
    total: int = Field(description="Rows in the upload.")
    status_url: str = Field(description="GET it for progress, counts, metrics and partial results.")
    results_url: str = Field(description="GET it to download the results JSONL (partial while the job runs).")


def _token_check(settings: ServiceSettings) -> Any:
    token = settings.token_value()

    async def check(authorization: Annotated[str | None, Header()] = None) -> None:
        if token is None:
            return
        scheme, _, given = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not secrets.compare_digest(given.strip().encode(), token.encode()):
            raise UnauthorizedError(
                "missing or wrong API token: send `Authorization: Bearer <token>` with the server's DROWZEE_API_TOKEN",
                "token",
            )

    return check


async def _save_upload(file: UploadFile, settings: ServiceSettings) -> Path:
    """Stream the upload to a staging file, refusing it past `max_upload_bytes`."""
    staging = settings.jobs_dir / "incoming"
    staging.mkdir(parents=True, exist_ok=True)
    path = staging / f"{uuid.uuid4().hex}.part"
    size = 0
    with path.open("wb") as fh:
        while chunk := await file.read(CHUNK):
            size += len(chunk)
            if size > settings.max_upload_bytes:
                fh.close()
                path.unlink(missing_ok=True)
                raise TooLargeError(
                    f"upload is over {settings.max_upload_bytes:,} bytes; set"
                    f" {ServiceSettings.env_name('max_upload_bytes')} to raise the limit, or split the file",
                    "max_upload_bytes",
                )
            fh.write(chunk)
    return path


def _router(runtime: Runtime) -> APIRouter:
    settings = runtime.settings
    api = APIRouter(prefix="/api", dependencies=[Depends(_token_check(settings))], tags=["api"])

    @api.post("/verify", response_model=Verdict, summary="Verify one Query-Response pair")
    async def verify(request: VerifyRequest) -> Verdict:
        """FACTUAL or NON-FACTUAL, why (evidence ids, proofs), each source's opinion, and provenance."""
        return await runtime.verify(request)

    @api.post("/prove", response_model=ProveResponse, summary="Prove a claim on the knowledge base")
    async def prove(claim: ProveRequest) -> ProveResponse:
        """Supported / contradicted with the Prolog proof, or unknown (absence is never false)."""
        return await runtime.prove_async(claim)

    @api.post("/batch", response_model=BatchCreated, status_code=202, summary="Start a batch job")
    async def batch(
        file: Annotated[UploadFile, File(description="JSONL or CSV of Query-Response pairs (FactCHD schema).")],
        columns: Annotated[
            str | None, Form(description="Column map, e.g. `query=question,response=answer,label=gold`.")
        ] = None,
        evidence_field: Annotated[str | None, Form(description="Column holding each row's evidence.")] = None,
    ) -> BatchCreated:
        """Upload a file; the job checks every row (a bad row becomes an error record) and survives restarts."""
        staged = await _save_upload(file, settings)
        try:
            job = await run_in_threadpool(
                runtime.batch.create, staged, file.filename or "upload.jsonl", columns, evidence_field
            )
        finally:
            staged.unlink(missing_ok=True)
            staged.with_suffix(Path(file.filename or "").suffix.lower()).unlink(missing_ok=True)
        return BatchCreated(
            id=job.id, total=job.total, status_url=f"/api/batch/{job.id}", results_url=f"/api/batch/{job.id}/results"
        )

    @api.post("/kb/load", response_model=LoadResult, summary="Load a file of triples (and relation declarations)")
    async def kb_load(
        file: Annotated[UploadFile, File(description="Triples: CSV, JSONL, Prolog facts or Wikidata JSON.")],
        format: Annotated[str, Form(description="Loader name: csv, jsonl, prolog, wikidata-json.")] = "csv",
        domain: Annotated[str, Form(description="Domain of rows that name none.")] = "general",
        relation: Annotated[str | None, Form(description="wikidata-json: the relation when no ?p.")] = None,
        relations: Annotated[
            UploadFile | None, File(description="TOML declaring the data's relations (label, templates, logic).")
        ] = None,
    ) -> LoadResult:
        """Add the rows to the KB (bad rows are reported, the rest load); a bad declaration file loads nothing."""
        suffix = Path(file.filename or "upload.csv").suffix.lower()
        staged = (await _save_upload(file, settings)).rename(
            settings.jobs_dir / "incoming" / f"{uuid.uuid4().hex}{suffix}"
        )
        declared = (await _save_upload(relations, settings)) if relations is not None else None
        try:
            return await run_in_threadpool(
                runtime.kb_call,
                lambda s: load_kb_file(
                    s,
                    staged,
                    format,
                    domain,
                    relation=relation,
                    relations=declared,
                    max_bytes=settings.max_upload_bytes,
                ),
            )
        except DrowzeeError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from exc
        finally:
            staged.unlink(missing_ok=True)
            if declared is not None:
                declared.unlink(missing_ok=True)

    @api.get("/batch", response_model=list[BatchJob], summary="List batch jobs")
    async def jobs() -> list[BatchJob]:
        """Every batch job, newest first."""
        return await run_in_threadpool(runtime.batch.jobs)

    @api.get("/batch/{job_id}", response_model=BatchStatus, summary="A batch job's progress and partial results")
    async def status(
        job_id: str,
        offset: Annotated[int, Query(ge=0, description="First results record to return.")] = 0,
        limit: Annotated[int, Query(ge=1, le=1000, description="Records to return.")] = 50,
    ) -> BatchStatus:
        """Rows done of total, verdict counts, metrics when rows carry labels, and a page of results."""
        return await run_in_threadpool(runtime.batch.status, job_id, offset, limit)

    @api.get("/batch/{job_id}/results", summary="Download a batch job's results (JSONL)")
    async def results(job_id: str) -> FileResponse:
        """One `{row, id, verdict | error}` line per input row; partial while the job runs."""
        job = runtime.batch.get(job_id)
        path = runtime.batch.results_path(job_id)
        if not path.exists():
            path.touch()
        return FileResponse(
            path,
            media_type="application/x-ndjson",
            filename=f"{Path(job.filename).stem}.verdicts.jsonl",
            headers={"X-Drowzee-Job-Status": job.status},
        )

    return api


def install_api(app: FastAPI, runtime: Runtime) -> None:
    """Add the routes, the body-size limit and the error handlers to `app`."""
    app.include_router(_router(runtime))
    app.add_middleware(BodyLimit, settings=runtime.settings)

    @app.get("/healthz", tags=["service"], summary="Liveness")
    async def healthz() -> dict[str, Any]:
        """`{"status": "ok", ...}` while the server serves (no token needed)."""
        return runtime.health()

    @app.exception_handler(RefusedError)
    async def rejected(_request: Request, exc: RefusedError) -> JSONResponse:
        return refusal(exc.status, str(exc), exc.setting)

    @app.exception_handler(OverLimit)
    async def over_limit(_request: Request, exc: OverLimit) -> JSONResponse:
        return refusal(413, str(exc.detail), exc.setting)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg', 'invalid')}" for e in exc.errors()]
        return refusal(422, "invalid request: " + "; ".join(problems[:10]), None)


__all__ = ["BatchCreated", "UnauthorizedError", "install_api"]
