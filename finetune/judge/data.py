"""Training data of the grounded judge: the shared NLI / claim files and our KB examples, mixed.

- `read_shared(root)`: the JSONL files under `../shared/data/train/` (SNLI, FEVER, recast NLI tasks;
  each row's `label` is already SUPPORTED / NOT_SUPPORTED) as claim-only `JudgeExample`s (empty query,
  the passage as one evidence item), keeping each file's `source`. Paths under `peers/` are refused:
  those files are for evaluation only.
- `mix(kb, shared, cfg)` (pure) and `build_mix(kb_file, shared_root, cfg)`: the training mix. Each
  group (kb, snli, fever, recast) gets its share of `cfg.n`; inside a group the sources share the
  group's quota evenly (a source with too few rows hands the rest to the others; a KB recipe is a
  source `kb:<recipe>`), at most `cap_per_source` rows each, half SUPPORTED and half NOT_SUPPORTED;
  exact duplicate (evidence, claim) rows of the shared files are dropped; the result is shuffled with
  the seed. A contrast pair may lose one side when a recipe is sampled down.
- `dev_set(kb_file, n, seed)`: the generated dev split, the only data thresholds are fitted on.
- `fingerprint(examples)`: a sha256 over the examples in order, for manifests.

`python -m finetune.judge.data --kb KB --out mix.jsonl [--n N --seed S]` writes a mix with its sidecar.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.judge import JudgeExample, Support

log = logging.getLogger(__name__)

GROUPS: tuple[str, ...] = ("kb", "snli", "fever", "recast")
DEFAULT_SHARES: Mapping[str, float] = {"kb": 0.5, "snli": 0.15, "fever": 0.15, "recast": 0.2}
DEFAULT_N = 20_000
DEFAULT_CAP = 3_000
DEFAULT_SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "train"
"""`../shared/data/train` beside the repository."""


def group_of(source: str) -> str:
    """The mix group of a source: `kb:<recipe>` -> kb, `fever_rte_dev` -> fever, `recast_drop` -> recast."""
    for g in GROUPS:
        if source == g or source.startswith((f"{g}:", f"{g}_")):
            return g
    raise DrowzeeError(f"source {source!r} belongs to no mix group; expected a prefix of {list(GROUPS)}")


def read_shared(root: Path) -> list[JudgeExample]:
    """Every row of the JSONL files under `root` as a claim-only example, in file and line order.

    Raises:
        DrowzeeError: `root` is under a `peers` folder, holds no JSONL file, or a row lacks a field.

    """
    if "peers" in root.resolve().parts:
        raise DrowzeeError(f"{root} is evaluation data (peers/): train on ../shared/data/train only")
    files = sorted(root.rglob("*.jsonl"))
    if not files:
        raise DrowzeeError(f"no .jsonl file under {root}; point it at ../shared/data/train")
    out: list[JudgeExample] = []
    for path in files:
        with path.open(encoding="utf-8") as fh:
            for i, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                    out.append(
                        JudgeExample(
                            id=str(row["id"]),
                            response=row["claim"],
                            evidence=[row["evidence"]],
                            label=Support(row["label"]),
                            source=row["source"],
                        )
                    )
                except (KeyError, ValueError) as exc:
                    raise DrowzeeError(f"{path}:{i}: not a shared training row ({exc})") from exc
    return out


@dataclass(frozen=True, slots=True)
class MixConfig:
    """Size and make-up of the training mix; validated at construction."""

    n: int = DEFAULT_N
    shares: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_SHARES))
    """Share of `n` per group (kb, snli, fever, recast); they sum to 1."""
    cap_per_source: int = DEFAULT_CAP
    """At most this many rows from one shared file's source."""
    seed: int = 0
    split_seed: int = 0

    def __post_init__(self) -> None:
        if self.n < 2:
            raise DrowzeeError(f"`n` must be >= 2, got {self.n}")
        bad = sorted(set(self.shares) - set(GROUPS))
        if bad or any(v < 0 for v in self.shares.values()) or abs(sum(self.shares.values()) - 1) > 1e-6:
            raise DrowzeeError(
                f"`shares` must map groups of {list(GROUPS)} to non-negative shares summing to 1,"
                f" got {dict(self.shares)}"
            )
        if self.cap_per_source < 2:
            raise DrowzeeError(f"`cap_per_source` must be >= 2, got {self.cap_per_source}")

    def quota(self, group: str) -> int:
        """Rows wanted from `group`."""
        return round(self.n * self.shares.get(group, 0.0))


def _fill(avail: Mapping[str, int], want: int) -> dict[str, int]:
    """Split `want` over sources evenly, none above its `avail`; what one cannot take goes to the rest."""
    out: dict[str, int] = {}
    order = sorted(avail, key=lambda s: (avail[s], s))
    for i, src in enumerate(order):
        out[src] = min(avail[src], want // (len(order) - i))
        want -= out[src]
    return out


def balanced(rows: Sequence[JudgeExample], k: int, rng: random.Random) -> list[JudgeExample]:
    """`k` rows (rounded down to even), half of each label, sampled with `rng`."""
    by = {lab: [r for r in rows if r.label == lab] for lab in Support}
    half = min(k // 2, *(len(v) for v in by.values()))
    return [r for lab in Support for r in rng.sample(by[lab], half)]


def mix(kb: Sequence[JudgeExample], shared: Sequence[JudgeExample], cfg: MixConfig) -> list[JudgeExample]:
    """The training mix from KB examples and shared rows (pure, seeded); see the module docstring."""
    rng = random.Random(cfg.seed)
    out: list[JudgeExample] = []
    seen: set[tuple[str, ...]] = set()
    by_source: dict[str, list[JudgeExample]] = defaultdict(list)
    by_source.update({s: [e for e in kb if e.source == s] for s in sorted({e.source for e in kb})})
    for row in shared:
        key = (*row.evidence, row.response)
        if key not in seen:
            seen.add(key)
            by_source[row.source].append(row)
    for group in GROUPS:
        sources = {s: rows for s, rows in sorted(by_source.items()) if group_of(s) == group}
        want = cfg.quota(group)
        if not want:
            continue
        avail = {
            s: min(cfg.cap_per_source, 2 * min(Counter(r.label for r in rows).get(lab, 0) for lab in Support))
            for s, rows in sources.items()
        }
        got = 0
        for src, pairs in _fill({s: a // 2 for s, a in avail.items()}, want // 2).items():  # one of each label
            picked = balanced(sources[src], 2 * pairs, rng)
            got += len(picked)
            out += picked
        if got < want:
            log.warning("mix group %s: %d of %d rows (its files have too few balanced rows)", group, got, want)
    rng.shuffle(out)
    return out


def kb_examples(kb_file: Path, n: int, seed: int, split: str, split_seed: int = 0) -> list[JudgeExample]:
    """`n` generated examples of one split of the KB at `kb_file` (Prolog decides every label)."""
    from drowzee_core.generate.judge import JudgeConfig, JudgeGenerator
    from drowzee_core.generate.splits import SplitPlan
    from drowzee_core.kb.store import KBStore
    from drowzee_core.logic.reasoner import Reasoner

    if not kb_file.exists():
        raise DrowzeeError(f"no KB at {kb_file}; build one with `drowzee kb build`")
    gen = JudgeGenerator.from_reasoner(Reasoner(KBStore(kb_file)))
    return gen.generate(JudgeConfig(n=n, seed=seed, split=split, plan=SplitPlan(split_seed)))


def build_mix(
    kb_file: Path, shared_root: Path, cfg: MixConfig, hold_out: frozenset[str] = frozenset()
) -> list[JudgeExample]:
    """The training mix: the KB's train split (generated here) and the shared files under `shared_root`.

    Shared rows whose claim is in `hold_out` (`held_out_claims`) stay out, so that what is measured or
    fitted on them later is not measured on training rows.
    """
    kb = kb_examples(kb_file, cfg.quota("kb"), cfg.seed, "train", cfg.split_seed) if cfg.quota("kb") else []
    shared = [r for r in read_shared(shared_root) if _claim_key(r.response) not in hold_out]
    return mix(kb, shared, cfg)


def _claim_key(text: str) -> str:
    return " ".join(text.split()).casefold()


def held_out_claims(files: Iterable[Path], manager_mix_train: Path | None = None, seed: int = 0) -> frozenset[str]:
    """Claims to keep out of training: every claim of `files`, and those the Manager's dev mix draws.

    Args:
        files: JSONL files of the shared format (a `claim` field), held out whole (e.g. FEVER-symmetric,
            which shares claims with FEVER-RTE).
        manager_mix_train: the train folder the Manager's dev mix samples (`finetune.manager_mix`), whose
            sampled rows the judge's trusted threshold is later fitted on.
        seed: the Manager mix's seed.

    """
    from finetune.manager_mix import SOURCES, train_pairs

    out: set[str] = set()
    for path in files:
        with path.open(encoding="utf-8") as fh:
            out.update(_claim_key(json.loads(line)["claim"]) for line in fh if line.strip())
    if manager_mix_train is not None:
        for source in SOURCES:
            out.update(_claim_key(p.response) for p in train_pairs(manager_mix_train, source, seed))
    return frozenset(out)


def dev_set(kb_file: Path, n: int, seed: int = 1, split_seed: int = 0) -> list[JudgeExample]:
    """Generated dev-split examples: what thresholds are fitted on (never the peers' files)."""
    return kb_examples(kb_file, n, seed, "dev", split_seed)


def fingerprint(examples: Iterable[JudgeExample]) -> str:
    """sha256 over the examples' canonical JSON, in order (another order is another training run)."""
    h = hashlib.sha256()
    for ex in examples:
        h.update(json.dumps(ex.model_dump(mode="json"), sort_keys=True, ensure_ascii=False).encode())
        h.update(b"\n")
    return f"sha256:{h.hexdigest()}"


def summary(examples: Sequence[JudgeExample]) -> dict[str, object]:
    """Counts per group, source and label, and the fingerprint."""
    return {
        "rows": len(examples),
        "group": dict(Counter(group_of(e.source) for e in examples).most_common()),
        "source": dict(Counter(e.source for e in examples).most_common()),
        "label": dict(Counter(str(e.label) for e in examples).most_common()),
        "fingerprint": fingerprint(examples),
    }


def parse_shares(text: str) -> dict[str, float]:
    """`kb=0.3,snli=0.7` as a share map (empty text: the default shares)."""
    if not text.strip():
        return dict(DEFAULT_SHARES)
    try:
        pairs = [part.split("=", 1) for part in text.split(",") if part.strip()]
        return {k.strip(): float(v) for k, v in pairs}
    except ValueError as exc:
        raise DrowzeeError(f"--shares wants group=share pairs separated by commas, got {text!r}") from exc


def main(argv: Sequence[str] | None = None) -> int:
    """Write a training mix (or, with --dev, the generated dev split) as JSONL with its sidecar."""
    from drowzee_core.kb.store import KBStore
    from drowzee_core.records.jsonl import write_jsonl
    from drowzee_core.records.provenance import input_files, provenance

    ap = argparse.ArgumentParser(prog="python -m finetune.judge.data", description=main.__doc__)
    ap.add_argument("--kb", type=Path, required=True, help="KB file (sqlite) to generate examples from.")
    ap.add_argument("--shared", type=Path, default=DEFAULT_SHARED, help="Shared training files (../shared/data/train).")
    ap.add_argument("--out", type=Path, required=True, help="Output JSONL (sidecar OUT.meta.json).")
    ap.add_argument("--n", type=int, default=DEFAULT_N, help="Rows in the mix (or dev examples).")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dev", action="store_true", help="Write generated dev-split examples instead of a mix.")
    ap.add_argument("--shares", default="", help="Group shares, e.g. kb=0.3,snli=0.3,fever=0.4 (default: the mix's).")
    ap.add_argument("--cap", type=int, default=DEFAULT_CAP, help="At most this many rows per source.")
    ap.add_argument("--hold-out", type=Path, action="append", default=[], help="A shared file whose claims stay out.")
    ap.add_argument(
        "--hold-out-manager-mix", type=Path, default=None, help="The train folder whose Manager-mix rows stay out."
    )
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    cfg = MixConfig(n=args.n, seed=args.seed, shares=parse_shares(args.shares), cap_per_source=args.cap)
    if args.dev:
        rows, inputs = dev_set(args.kb, args.n, args.seed), {}
    else:
        held = held_out_claims(args.hold_out, args.hold_out_manager_mix)
        rows = build_mix(args.kb, args.shared, cfg, held)
        inputs = input_files(sorted(args.shared.rglob("*.jsonl")))
    facts = summary(rows)
    params = {"kb": str(args.kb), "n": args.n, "seed": args.seed, "dev": args.dev}
    if not args.dev:
        params |= {
            "shared": str(args.shared),
            "mix": asdict(cfg),
            "hold_out": [str(p) for p in args.hold_out],
            "hold_out_manager_mix": str(args.hold_out_manager_mix) if args.hold_out_manager_mix else None,
        }
    with KBStore(args.kb) as store:
        kb_fp = store.fingerprint()
    meta = provenance("finetune.judge.data", params, seed=args.seed, kb_fingerprint=kb_fp, inputs=inputs, counts=facts)
    write_jsonl(rows, args.out, meta)
    log.info("wrote %s", json.dumps(facts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
