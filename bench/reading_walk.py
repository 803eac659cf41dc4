"""One response followed through the reading floor: which files and stages its reading enters, in what order.

The walk calls the verifier's claims node (`agents.verifier.nodes.claims.read_claims`, a call of
`agents.reading.claims.read_response`) on a response worded for it, once to load the models and the KB's
saved states, then again under a profiler (`sys.setprofile`) that sees every Python call and return. It
runs the whole read on the KB thread (the store's thread, `KBGate`), so the calls the reading hands to that
thread are seen too.

Each frame is put in a file of the product (`agents/`, `drowzee_core/`; the standard library and other
packages are not counted) and each file of `agents/reading/` in its stage (`clauses`, `mentions`,
`candidates`, `templates`, `questions`, `claims`, `evidence`; `claim_types.py` is the floor's records).
It reports:

- **files entered**: the product files the read ran code of, and those of the reading floor;
- **returns to a file left**: how often the running file became one it had run and left before, by a
  call into it or by a return to it (the issue's measure of a trip that goes back and forth);
- **calls to a later stage**: calls from a stage's code into code of a stage ranked after it (a stage
  that reaches forward, by an import or a callback); the floor's layering wants none;
- **the hand-offs of `read_response`**: the stage of each call the claims stage makes into another
  stage, in order, with repeats folded (the pipeline as it runs);
- **the orchestration**: the files the orchestrating code (the claims node, and `claims/response.py` where
  it is there) calls into directly, in order with repeats folded, how many there are and how often the
  sequence comes back to a file it has left (the coarse twin of the figures above).

`--repo` may be an older checkout (the claims node has had this call since the layout issue): the walk
then follows its code, for a before/after on the same measure (the stage figures need the stages).

Example:
    python bench/reading_walk.py --json-out /tmp/walk.json
    python bench/reading_walk.py --repo /tmp/old --json-out /tmp/walk_old.json

"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

log = logging.getLogger("reading_walk")

ROOT = Path(__file__).resolve().parent.parent
"""The checkout whose product code is followed (`--repo`)."""
PRODUCT = ("agents", "drowzee_core")
ORCHESTRATORS = ("agents/verifier/nodes/claims.py", "agents/reading/claims/response.py")
STAGES = ("claim_types", "clauses", "mentions", "candidates", "templates", "questions", "claims", "evidence")
RANK = {"claim_types": 0, "clauses": 1, "mentions": 2, "candidates": 3, "templates": 3, "questions": 4}
RANK |= {"claims": 5, "evidence": 6}
"""The stages' ranks, as `tests/unit/test_layers.py` orders them (candidates and templates share one)."""

DEFAULT_QUERY = "Tell me about France."
DEFAULT_RESPONSE = (
    "Paris is the capital of France, and it lies on the Seine. "
    "France has about 68 million people. Its currency is the euro, which it adopted in 1999."
)
"""A response about facts the seed KB holds, worded for this walk."""


@dataclass
class Walk:
    """What the profiler saw of one read."""

    files: list[str] = field(default_factory=list)
    """Product files in the order the read first ran their code."""
    returns_by_call: int = 0
    returns_by_return: int = 0
    later_stage_calls: Counter[str] = field(default_factory=Counter)
    hand_offs: list[str] = field(default_factory=list)
    direct: list[str] = field(default_factory=list)
    """Files the orchestrating code calls into, in order, repeats folded."""
    calls: int = 0


def product_file(path: str) -> str | None:
    """`path` relative to the repository when it is a product module, else None."""
    try:
        rel = Path(path).resolve().relative_to(ROOT)
    except ValueError:
        return None
    return rel.as_posix() if rel.parts and rel.parts[0] in PRODUCT else None


def stage_of(rel: str) -> str | None:
    """The reading stage of a product file, or None outside `agents/reading/`."""
    parts = rel.split("/")
    if parts[:2] != ["agents", "reading"] or len(parts) < 3:
        return None
    name = parts[2].removesuffix(".py")
    return name if name in STAGES else None


class Profiler:
    """A `sys.setprofile` hook that keeps the product file running on top and counts its changes."""

    def __init__(self) -> None:
        self.walk = Walk()
        self._stack: list[str | None] = []  # the product file of each Python frame on the stack (None: not ours)
        self._top: list[str] = []  # the product files on top, innermost last
        self._left: set[str] = set()

    def _current(self) -> str | None:
        return self._top[-1] if self._top else None

    def _moved(self, before: str | None, after: str | None, by_call: bool) -> None:
        if after is None or after == before:
            return
        if before is not None:
            self._left.add(before)
        if after in self._left:
            if by_call:
                self.walk.returns_by_call += 1
            else:
                self.walk.returns_by_return += 1
        if after not in self.walk.files:
            self.walk.files.append(after)

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        """Follow one profiler event (Python calls and returns; C calls are not product code)."""
        if event == "call":
            rel = product_file(frame.f_code.co_filename)
            before = self._current()
            self._stack.append(rel)
            if rel is None:
                return
            self.walk.calls += 1
            self._top.append(rel)
            self._moved(before, rel, by_call=True)
            if before in ORCHESTRATORS and rel not in ORCHESTRATORS and self.walk.direct[-1:] != [rel]:
                self.walk.direct.append(rel)
            caller, callee = (stage_of(before) if before else None), stage_of(rel)
            if caller and callee and caller != callee:
                if RANK[callee] > RANK[caller]:
                    self.walk.later_stage_calls[f"{caller} -> {callee} ({before} -> {rel}:{frame.f_code.co_name})"] += 1
                from_response = caller == "claims" and before is not None and before.endswith("claims/response.py")
                if from_response and (not self.walk.hand_offs or self.walk.hand_offs[-1] != callee):
                    self.walk.hand_offs.append(callee)
        elif event == "return" and self._stack:
            rel = self._stack.pop()
            if rel is None:
                return
            before = self._top.pop()
            self._moved(before, self._current(), by_call=False)


def walk(query: str, response: str) -> dict[str, Any]:
    """The walk's figures for one response (the verifier's services, the Guardian off)."""
    from agents.verifier.nodes.claims import read_claims
    from agents.verifier.runner import Verifier
    from agents.verifier.settings import VerifierSettings

    settings = VerifierSettings.load().model_copy(update={"use_guardian": False})
    with Verifier(settings) as verifier:
        services, ctx = verifier.services, verifier.context
        started = time.perf_counter()
        services.gate.run(lambda: read_claims(ctx, query, response))  # models and saved states load
        log.info("warm-up read: %.1f s", time.perf_counter() - started)
        profiler = Profiler()

        def traced() -> Any:
            sys.setprofile(profiler)
            try:
                return read_claims(ctx, query, response)
            finally:
                sys.setprofile(None)

        claims = services.gate.run(traced)
    w = profiler.walk
    reading = [f for f in w.files if f.startswith("agents/reading/")]
    return {
        "produced_by": "bench/reading_walk.py",
        "repo": str(ROOT),
        "query": query,
        "response": response,
        "claims": [c.model_dump(mode="json") for c in claims],
        "product_calls": w.calls,
        "files_entered": len(w.files),
        "reading_files_entered": len(reading),
        "files": w.files,
        "returns_to_a_file_left": w.returns_by_call + w.returns_by_return,
        "returns_by_call": w.returns_by_call,
        "returns_by_return": w.returns_by_return,
        "calls_to_a_later_stage": sum(w.later_stage_calls.values()),
        "later_stage_calls": dict(w.later_stage_calls),
        "read_response_hand_offs": w.hand_offs,
        "orchestration": w.direct,
        "orchestration_files": len(set(w.direct)),
        "orchestration_returns": len(w.direct) - len(set(w.direct)),
    }


def main() -> None:
    """Walk one response (`--query`, `--response`) and print the figures (`--json-out` keeps them)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--query", default=DEFAULT_QUERY)
    parser.add_argument("--response", default=DEFAULT_RESPONSE)
    parser.add_argument("--json-out", type=Path)
    parser.add_argument("--repo", type=Path, help="the checkout to follow (default: this one)")
    args = parser.parse_args()
    if args.repo is not None:
        global ROOT
        ROOT = args.repo.resolve()
        sys.path.insert(0, str(ROOT))
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    out = walk(args.query, args.response)
    import agents

    if Path(agents.__file__).resolve().parent.parent != ROOT:
        raise SystemExit(f"the walk ran {agents.__file__}, not the code of {ROOT}")
    for c in out["claims"]:
        log.info("claim %s (%s): %s", c["id"], c["kind"] if "kind" in c else c.get("origin"), c["text"])
    log.info("product calls: %d", out["product_calls"])
    log.info("files entered: %d (reading floor: %d)", out["files_entered"], out["reading_files_entered"])
    log.info(
        "returns to a file left: %d (%d by a call, %d by a return)",
        out["returns_to_a_file_left"],
        out["returns_by_call"],
        out["returns_by_return"],
    )
    log.info("calls to a later stage: %d %s", out["calls_to_a_later_stage"], out["later_stage_calls"] or "")
    log.info("read_response hands to: %s", " -> ".join(out["read_response_hand_offs"]))
    log.info(
        "orchestration: %d files, %d returns to a file left: %s",
        out["orchestration_files"],
        out["orchestration_returns"],
        " -> ".join(f.rsplit("/", 2)[-2] + "/" + f.rsplit("/", 1)[-1] for f in out["orchestration"]),
    )
    if args.json_out:
        args.json_out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        log.info("wrote %s", args.json_out)


if __name__ == "__main__":
    main()
