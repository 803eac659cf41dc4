"""The `drowzee` command line: thin command groups over the packages (`cli.main:run` runs `cli.main:app`).

One module per group (kb, prove, temporal, generate, models, run_llm, score, report, train);
`output` holds the shared option types and printing helpers. Every command that writes a file
writes its provenance sidecar `OUT.meta.json`.
"""

from typing import TYPE_CHECKING

from drowzee_core.lazy import lazy_exports

if TYPE_CHECKING:
    from cli.main import app

__getattr__ = lazy_exports(__name__, {"app": "cli.main"})
__all__ = ["app"]
