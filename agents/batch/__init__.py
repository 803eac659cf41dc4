"""The batch engine behind `drowzee batch` and the Batch tab: every input row once in the output, durably.

`rows` reads the input (JSONL / CSV, the column map), `engine` plans and runs the tasks locally with a
fsynced ledger (resumable), `ray_engine` runs them on Ray workers, `tally` says what the output holds.
"""

from typing import TYPE_CHECKING

from drowzee_core.lazy import lazy_exports

if TYPE_CHECKING:
    from agents.batch.engine import Ledger, Task, Verify, parse_columns, plan, run_local
    from agents.batch.ray_engine import run_ray
    from agents.batch.rows import BatchError, Record, count_rows, read_rows
    from agents.batch.tally import Tally

_EXPORTS = {
    "Ledger": "engine",
    "Task": "engine",
    "Verify": "engine",
    "parse_columns": "engine",
    "plan": "engine",
    "run_local": "engine",
    "BatchError": "rows",
    "Record": "rows",
    "count_rows": "rows",
    "read_rows": "rows",
    "run_ray": "ray_engine",
    "Tally": "tally",
}
__getattr__ = lazy_exports(__name__, {k: f"{__name__}.{m}" for k, m in _EXPORTS.items()})
__all__ = [
    "BatchError",
    "Ledger",
    "Record",
    "Tally",
    "Task",
    "Verify",
    "count_rows",
    "parse_columns",
    "plan",
    "read_rows",
    "run_local",
    "run_ray",
]
