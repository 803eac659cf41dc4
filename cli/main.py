"""`drowzee`: the command line; this module only wires the command groups together.

One module per group: `kb` (build, load, stats), `prove` (derive, prove), `temporal`, `generate`,
`models`, `run_llm`, `score`, `report`, `train` (train, eval),
`verify` (verify, batch, verifier mix|run|fit|report), `benchmark` (the closed loop). Every command that writes
a file writes its provenance sidecar `OUT.meta.json` beside it (see `drowzee_core.records.provenance`).
"""

from __future__ import annotations

import atexit
import logging
import os
import sys
import threading
from typing import Annotated

import typer

from cli.batch import batch
from cli.benchmark import benchmark
from cli.generate import generate_app
from cli.judge import calibrate_judge, eval_judge, train_judge
from cli.kb import kb_app
from cli.models import models_app
from cli.prove import derive, prove
from cli.report import report
from cli.run_llm import run_llm
from cli.schemas import schemas_app
from cli.score import score
from cli.temporal import temporal_app
from cli.train import eval_app, train_app
from cli.verifier_fit import verifier_app
from cli.verify import verify

app = typer.Typer(help="Drowzee Triangulator: provable fact-conflicting hallucination tests.", no_args_is_help=True)
app.add_typer(kb_app, name="kb")
app.command("derive")(derive)
app.command("prove")(prove)
app.add_typer(temporal_app, name="temporal")
app.add_typer(generate_app, name="generate")
app.add_typer(models_app, name="models")
app.command("run-llm")(run_llm)
app.command("score")(score)
app.command("report")(report)
app.add_typer(train_app, name="train")
app.add_typer(eval_app, name="eval")
train_app.command("judge")(train_judge)
train_app.command("judge-calibrate")(calibrate_judge)
eval_app.command("judge")(eval_judge)
app.add_typer(schemas_app, name="schemas")
app.command("verify")(verify)
app.command("batch")(batch)
app.add_typer(verifier_app, name="verifier")
app.command("benchmark")(benchmark)


@app.callback()
def _main(verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log progress details.")] = False) -> None:
    level = logging.INFO if verbose else logging.WARNING
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")


def run() -> None:
    """The `drowzee` console script: the app, then an exit that skips the interpreter's teardown.

    Once a command has returned, what an orderly exit still has to do is done here in its order:
    non-daemon threads are joined (thread pools told to stop), exit handlers run (the model server
    stopped or left to its other users, the lease released, logs flushed) and the output flushed. Then
    the process ends without freeing every object of the models and the KB one by one, which takes
    about a second on 2 cores after a verify. A command that fails with an exception ends normally, with
    its traceback.
    """
    try:
        app()
        code: int | str | None = 0
    except SystemExit as exc:
        code = exc.code
    getattr(threading, "_shutdown")()  # noqa: B009  (what the interpreter runs first at exit)
    atexit._run_exitfuncs()
    if isinstance(code, str):
        sys.stderr.write(code + "\n")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code if isinstance(code, int) else 0 if code is None else 1)
