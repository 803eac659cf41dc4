"""A tiny model behind the real model-server plumbing (`run_server`), for liveness tests without weights.

`python -m tests.fake_model_server --port P [--max-restarts N]` serves model `fake`. The last message
decides the answer: `pid` -> the worker's pid; `slow` -> "done" after 3 s; anything else -> "Yes.".
While the file named by `$FAKE_STALL_FLAG` exists every other prompt stalls (until the file is removed).
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import litserve as ls

from drowzee_core.llm import liveness
from drowzee_core.llm.liveness import die_with_parent, run_server


class FakeAPI(ls.LitAPI):  # type: ignore[misc]
    """Answers from the prompt's last message, in the shape `ModelAPI.predict` yields."""

    def setup(self, device: str) -> None:
        """Die with the server process, like `ModelAPI`."""
        die_with_parent()

    def predict(self, request: Any, **_: Any) -> Iterator[dict[str, Any]]:
        """One answer (see the module docstring)."""
        prompt = str(request.messages[-1].content)
        if prompt == "pid":
            text = str(os.getpid())
        elif prompt == "slow":
            time.sleep(3)
            text = "done"
        else:
            flag = os.environ.get("FAKE_STALL_FLAG")
            while flag and Path(flag).exists():
                time.sleep(0.1)
            text = "Yes."
        yield {"role": "assistant", "content": text, "prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}


def main() -> None:
    """`python -m tests.fake_model_server --port P`."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--max-restarts", type=int, default=liveness.MAX_RESTARTS)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    liveness.MAX_RESTARTS = args.max_restarts
    run_server(FakeAPI(), "127.0.0.1", args.port)
    logging.shutdown()
    os._exit(0)


if __name__ == "__main__":
    main()
