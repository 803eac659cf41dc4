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
  ROUGE-L recall (hypothesis = prediction, reference = gold) comes from `py-rouge` configured as the
  script does (`rouge.Rouge(metrics=[..., "rouge-l", ...], max_n=2)`), so its defaults apply: each
  text is cut to 665 characters (`length_limit_type="bytes"` counts `len` of the str), lower-cased,
  non-alphanumerics become spaces, tokens longer than 3 characters are mapped through py-rouge's
  WordNet table or else Porter-stemmed ("cities" -> "citi" = "city"), and an empty reference or
  hypothesis gives recall 0, even when both are empty. py-rouge's `nltk.word_tokenize` needs NLTK's
  punkt data (a hub download); on py-rouge's already alphanumeric, newline-free text punkt yields one
  sentence, so NLTK's own `NLTKWordTokenizer` (what `word_tokenize` runs per sentence) gives the same
  tokens without it.
- The reported ExpMatch is the script's `score`: each component is averaged over the pairs and rounded
  to 5 places, then `round(0.15 * head + 0.15 * tail + 0.7 * body, 4)`.

Accuracy and macro-F1 over the two classes are reported too, per category and overall.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import types
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from drowzee_core.records.summaries import FactCHDFigures, FactCHDSummary

POSITIVE = "non factual"
NEGATIVE = "factual"
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = re.compile(r"[!\"#$%&()*+,\-./:;<=>?@\[\]\\^`{|}~_']")


def _beside_module(module: str, name: str) -> str:
    """`pkg_resources.resource_filename` for a file next to an imported module's source."""
    return str(Path(str(sys.modules[module].__file__)).parent / name)


def _import_py_rouge() -> Any:
    """py-rouge's `rouge` module.

    py-rouge 1.1 does `import pkg_resources` only to locate its bundled WordNet table; setuptools >= 81
    no longer ships `pkg_resources`, so when it is missing a stand-in with that one function is
    visible for the duration of the import (and removed after it).
    """
    stand_in = None
    if importlib.util.find_spec("pkg_resources") is None:
        stand_in = types.ModuleType("pkg_resources")
        setattr(stand_in, "resource_filename", _beside_module)  # noqa: B010
        sys.modules["pkg_resources"] = stand_in
    try:
        import rouge
    finally:
        if stand_in is not None and sys.modules.get("pkg_resources") is stand_in:
            del sys.modules["pkg_resources"]
    return rouge


@cache
def _rouge() -> Any:
    """The ROUGE-L evaluator FactCHD's script builds, with punkt-free tokenization (see module doc)."""
    from drowzee_core.nlp import nltk_module

    nltk_module()  # without scipy.stats and scikit-learn (~1.4 s), which the tokenizer never needs
    from nltk.tokenize import NLTKWordTokenizer

    evaluator = _import_py_rouge().Rouge(metrics=["rouge-l"], max_n=2)  # the script's other metrics are unused
    words = NLTKWordTokenizer()
    evaluator.tokenize_text = lambda text, language="english": words.tokenize(text)
    return evaluator


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
    """py-rouge's stemmed ROUGE-L recall of `prediction` against `gold` (0 when either is empty)."""
    return float(_rouge().get_scores(prediction, gold)["rouge-l"]["r"])


def exp_match_parts(prediction: str, gold: str) -> dict[str, float]:
    """The three ExpMatch components of one pair of cleaned texts: body F1, head and tail ROUGE-L."""
    p, g = split_response(prediction), split_response(gold)
    return {
        "body": unigram_f1(p["body"], g["body"]),
        "head": rouge_l_recall(p["head"], g["head"]),
        "tail": rouge_l_recall(p["tail"], g["tail"]),
    }


def combine(parts: dict[str, float]) -> float:
    """ExpMatch = 0.15 x head ROUGE-L recall + 0.15 x tail ROUGE-L recall + 0.7 x body F1 (script order)."""
    return 0.15 * parts["head"] + 0.15 * parts["tail"] + 0.7 * parts["body"]


def exp_match(prediction: str, gold: str) -> float:
    """ExpMatch of one pair of cleaned texts."""
    return combine(exp_match_parts(prediction, gold))


def _div(a: float, b: float) -> float:
    return 0.0 if b == 0 else round(a / b, 5)


@dataclass(frozen=True)
class PairJudgement:
    """One scored (prediction, gold) pair: the two labels ("" = none) and the ExpMatch components."""

    pred: str
    gold: str
    parts: dict[str, float]

    def row(self) -> dict[str, Any]:
        """The per-row fields a judged file gets."""
        return {
            "parsed_label": _upper(self.pred),
            "gold_label": _upper(self.gold),
            "label_correct": self.pred == self.gold,
            "exp_match": round(combine(self.parts), 5),
        }


def judge_pair(prediction: str, gold: str) -> PairJudgement:
    """Labels and ExpMatch components of one pair of raw texts (cleaned as the script does)."""
    pred_text, gold_text = clean(prediction), clean(gold)
    return PairJudgement(label_of(pred_text), label_of(gold_text), exp_match_parts(pred_text, gold_text))


@dataclass
class FactCHDScore:
    """Running totals of one group of pairs (a category, or all of them)."""

    num: int = 0
    fail: int = 0
    correct: int = 0
    exp: Counter[str] = field(default_factory=Counter)
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, judged: PairJudgement) -> None:
        """Count one judged pair."""
        self.num += 1
        self.fail += judged.pred == ""
        self.correct += judged.pred == judged.gold
        self.confusion[(judged.pred, judged.gold)] += 1
        self.exp.update(judged.parts)

    def report(self) -> FactCHDFigures:
        """num, fail, acc, p, r, factcls (script rules), factcls_strict, macro_f1, exp_match and its parts."""
        c = self.confusion
        tp = c[(POSITIVE, POSITIVE)]
        fp = c[(POSITIVE, NEGATIVE)]
        fn = c[(NEGATIVE, POSITIVE)]
        p, r = _div(tp, tp + fp), _div(tp, tp + fn)
        f1 = 2 * _div(p * r, p + r)
        fn_strict = fn + c[("", POSITIVE)]
        r_strict = _div(tp, tp + fn_strict)
        f1_strict = 2 * _div(p * r_strict, p + r_strict)
        return FactCHDFigures(
            num=self.num,
            fail=self.fail,
            acc=_div(self.correct, self.num),
            p=p,
            r=r,
            factcls=round(f1, 5),
            factcls_strict=round(f1_strict, 5),
            macro_f1=round((_class_f1(c, POSITIVE) + _class_f1(c, NEGATIVE)) / 2, 5),
            body_f1=_div(self.exp["body"], self.num),
            head_rouge_l=_div(self.exp["head"], self.num),
            tail_rouge_l=_div(self.exp["tail"], self.num),
            exp_match=round(combine({k: _div(self.exp[k], self.num) for k in ("body", "head", "tail")}), 4),
        )


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
) -> tuple[list[dict[str, Any]], FactCHDSummary]:
    """Score (category, prediction, gold) triples: per-row judgements and a summary.

    The summary has the report over every pair once (`all`) and per category (`groups`): the overall
    figure is kept apart from the groups, because a category can itself be called "all" (one of
    FactCHD's own pairs has `subgraph_type: all`). An empty category is grouped as "unknown".
    """
    overall = FactCHDScore()
    groups: dict[str, FactCHDScore] = defaultdict(FactCHDScore)
    judged = []
    for category, prediction, gold in rows:
        j = judge_pair(prediction, gold)
        overall.add(j)
        groups[category or "unknown"].add(j)
        judged.append(j.row())
    return judged, FactCHDSummary(all=overall.report(), groups={k: v.report() for k, v in sorted(groups.items())})
