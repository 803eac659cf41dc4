r"""FactCHD's metrics, computed the way its evaluation script (`evaluate/metrics_plus.py`) does (pure).

Both the prediction and the gold output are texts that start with the label ("NON-FACTUAL. The ...").

- `clean`: strip; drop a leading "Output:" or "Response:"; "FACTS:" becomes "FACTUAL." or, when the
  text says "NON-FACTS" anywhere, "NON-FACTUAL.".
- Label: after `normalize` (lower case, punctuation to spaces, so "non-factual" -> "non factual";
  articles a/an/the dropped; spaces collapsed) the text must *start with* "non factual" or "factual".
  Anything else is a failure: counted in `fail`, wrong for accuracy, and, as in the script, neither a
  false negative nor a false positive for FactCls (`factcls_strict` also counts it as a miss).
- FactCls = F1 of the NON-FACTUAL class; precision and recall are rounded to 5 places first and F1 is
  `2 * round(p * r / (p + r), 5)`, as the script does.
- ExpMatch = 0.7 x body unigram F1 + 0.15 x head ROUGE-L recall + 0.15 x tail ROUGE-L recall, averaged
  over pairs, from `split_response` on the *un-normalized* text: the label is cut only when the text
  starts with "non-factual"/"NON-FACTUAL"/"factual"/"FACTUAL" (case as written), leading " .,;:'\"\\n" are
  stripped, the rest is split on "." and empty pieces dropped. Three or more pieces: head = first,
  tail = last, body = the rest; one piece: all body; two: body, unless the second starts with
  "Therefore" (then it is the tail). Body tokens are `str.split()` tokens, case and punctuation kept.
  ROUGE-L recall comes from `rouge-score` (the script used `py-rouge`, whose tokenizer needs NLTK's
  punkt data from a hub; both lower-case and split on non-alphanumerics).

Accuracy and macro-F1 over the two classes are reported too, per category and overall.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rouge_score import rouge_scorer

POSITIVE = "non factual"
NEGATIVE = "factual"
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = re.compile(r"[!\"#$%&()*+,\-./:;<=>?@\[\]\\^`{|}~_']")
_SCORER = rouge_scorer.RougeScorer(["rougeL"])


def clean(text: str) -> str:
    """The script's `clean`: output prefixes dropped, "FACTS:" mapped to a label."""
    s = str(text).strip()
    for prefix in ("Output:", "Response:"):
        if s.startswith(prefix):
            s = s[len(prefix) :]
    if s.startswith("FACTS:"):
        s = ("NON-FACTUAL." if "NON-FACTS" in s else "FACTUAL.") + s[len("FACTS:") :]
    return s


def normalize(text: str) -> str:
    """Lower case, punctuation to spaces, articles dropped, whitespace collapsed."""
    s = _PUNCT.sub(" ", text.lower())
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())


def label_of(text: str) -> str:
    """Return "non factual", "factual" or "" (no label) for a cleaned text."""
    s = normalize(text)
    if s.startswith(POSITIVE):
        return POSITIVE
    if s.startswith(NEGATIVE):
        return NEGATIVE
    return ""


def split_response(text: str) -> dict[str, str]:
    """The script's head / body / tail split of an explanation."""
    s = text.strip()
    if s.startswith(("non-factual", "NON-FACTUAL")):
        s = s[len("non-factual") :]
    elif s.startswith(("factual", "FACTUAL")):
        s = s[len("factual") :]
    else:
        i = 0
        while i < len(s) and not s[i].isalpha():
            i += 1
        s = s[i:]
    s = s.lstrip(" .,;:'\"\n")
    parts = [p for p in s.split(".") if p]
    out = {"head": "", "body": "", "tail": ""}
    if len(parts) >= 3:
        out["head"] = parts[0].strip() + ". "
        out["tail"] = parts[-1].strip() + ". "
        out["body"] = "".join(p.strip() + ". " for p in parts[1:-1])
        return out
    if parts:
        out["body"] = parts[0].strip() + ". "  # the script's head test can never be true
    if len(parts) >= 2:
        if parts[1].strip().startswith(("Therefore", "therefore")):
            out["tail"] = parts[1].strip() + ". "
        else:
            out["body"] += parts[1].strip() + ". "
    return out


def unigram_f1(prediction: str, gold: str) -> float:
    """Token-overlap F1 of whitespace tokens (multiset overlap)."""
    pred, ref = prediction.split(), gold.split()
    same = sum((Counter(ref) & Counter(pred)).values())
    if same == 0:
        return 0.0
    p, r = same / len(pred), same / len(ref)
    return 2 * p * r / (p + r)


def rouge_l_recall(prediction: str, gold: str) -> float:
    """ROUGE-L recall of `prediction` against `gold` (0 when either is empty)."""
    return float(_SCORER.score(gold, prediction)["rougeL"].recall)


def exp_match(prediction: str, gold: str) -> float:
    """ExpMatch of one pair of cleaned texts."""
    p, g = split_response(prediction), split_response(gold)
    return (
        0.7 * unigram_f1(p["body"], g["body"])
        + 0.15 * rouge_l_recall(p["head"], g["head"])
        + 0.15 * rouge_l_recall(p["tail"], g["tail"])
    )


def _div(a: float, b: float) -> float:
    return 0.0 if b == 0 else round(a / b, 5)


@dataclass
class FactCHDScore:
    """Running totals of one group (a category, or all)."""

    num: int = 0
    fail: int = 0
    correct: int = 0
    exp: float = 0.0
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, prediction: str, gold: str) -> dict[str, Any]:
        """Score one pair of raw texts; returns the per-row judgement."""
        pred_text, gold_text = clean(prediction), clean(gold)
        pred, ref = label_of(pred_text), label_of(gold_text)
        self.num += 1
        self.fail += pred == ""
        self.correct += pred == ref
        self.confusion[(pred, ref)] += 1
        em = exp_match(pred_text, gold_text)
        self.exp += em
        return {
            "parsed_label": _upper(pred),
            "gold_label": _upper(ref),
            "label_correct": pred == ref,
            "exp_match": round(em, 5),
        }

    def report(self) -> dict[str, float | int]:
        """num, fail, acc, p, r, factcls (script rules), factcls_strict, macro_f1, exp_match."""
        c = self.confusion
        tp = c[(POSITIVE, POSITIVE)]
        fp = c[(POSITIVE, NEGATIVE)]
        fn = c[(NEGATIVE, POSITIVE)]
        p, r = _div(tp, tp + fp), _div(tp, tp + fn)
        f1 = 2 * _div(p * r, p + r)
        fn_strict = fn + c[("", POSITIVE)]
        r_strict = _div(tp, tp + fn_strict)
        f1_strict = 2 * _div(p * r_strict, p + r_strict)
        return {
            "num": self.num,
            "fail": self.fail,
            "acc": _div(self.correct, self.num),
            "p": p,
            "r": r,
            "factcls": round(f1, 5),
            "factcls_strict": round(f1_strict, 5),
            "macro_f1": round((_class_f1(c, POSITIVE) + _class_f1(c, NEGATIVE)) / 2, 5),
            "exp_match": round(self.exp / self.num, 5) if self.num else 0.0,
        }


def _class_f1(c: Counter[tuple[str, str]], cls: str) -> float:
    tp = c[(cls, cls)]
    pred = sum(v for (p, _g), v in c.items() if p == cls)
    gold = sum(v for (_p, g), v in c.items() if g == cls)
    if tp == 0:
        return 0.0
    prec, rec = tp / pred, tp / gold
    return 2 * prec * rec / (prec + rec)


def _upper(label: str) -> str | None:
    return {POSITIVE: "NON-FACTUAL", NEGATIVE: "FACTUAL"}.get(label)


def score_factchd(
    rows: Iterable[tuple[str, str, str]],
) -> tuple[list[dict[str, Any]], dict[str, dict[str, float | int]]]:
    """Score (category, prediction, gold) triples: per-row judgements and reports per category + "all"."""
    groups: dict[str, FactCHDScore] = defaultdict(FactCHDScore)
    judged = []
    for category, prediction, gold in rows:
        judged.append(groups["all"].add(prediction, gold))
        groups[category or "unknown"].add(prediction, gold)
    return judged, {k: v.report() for k, v in sorted(groups.items())}
