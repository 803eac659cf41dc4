"""Turn id-level proof trees into labelled trees and readable sentences (pure)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.template_regex import fill

Proof = dict[str, Any]
"""A proof tree as JSON: `{rule, fact: [s, r, o], premises?: [...]}` with KB ids (from Prolog) or, after
`label_proof`, labels and a `text` sentence per node (the record form is `records.ProofNode`)."""


def proof_ids(proof: Proof | None) -> Iterator[int]:
    """Every entity id mentioned in a proof tree."""
    if proof is None:
        return
    s, _r, o = proof["fact"]
    yield s
    yield o
    for p in proof.get("premises", ()):
        yield from proof_ids(p)


def label_proof(
    proof: Proof | None,
    labels: Mapping[int, str],
    relation_names: Mapping[int, str],
    catalog: Catalog,
    composite_names: Mapping[int, str],
) -> Proof | None:
    """Replace ids by labels, name composite rules and add a sentence to every node."""
    if proof is None:
        return None
    s, r, o = proof["fact"]
    rel = relation_names[r]
    rule = str(proof["rule"])
    if rule.startswith("composite:"):
        rule = f"composite:{composite_names.get(int(rule.split(':', 1)[1]), rule)}"
    spec = catalog.get(rel)
    negated = rule == "negative_fact" or rule.startswith("negation")
    template = spec.negative if negated else spec.positive
    node: Proof = {
        "rule": rule,
        "fact": [labels[s], rel, labels[o]],
        "text": fill(template, labels[s], labels[o]),
    }
    if "premises" in proof:
        node["premises"] = [label_proof(p, labels, relation_names, catalog, composite_names) for p in proof["premises"]]
    return node


LEAF_RULES = {"fact": "known fact", "negative_fact": "explicit negative fact"}
"""Proof leaves (no premises) and what each rests on."""


def proof_lines(proof: Proof | None, indent: int = 0) -> list[str]:
    """A labelled proof as indented lines: conclusion first, premises below."""
    if proof is None:
        return []
    rule = proof["rule"]
    how = LEAF_RULES.get(rule, f"by {rule}")
    lines = [f"{'  ' * indent}{proof['text']}  [{how}]"]
    for p in proof.get("premises", ()):
        lines.extend(proof_lines(p, indent + 1))
    return lines


def _why(node: Proof, catalog: Catalog) -> str:
    """The justification of a rule node, in words."""
    rule = str(node["rule"])
    label = catalog.get(node["fact"][1]).label
    if rule == "symmetric":
        return f"the relation '{label}' is symmetric"
    if rule == "inverse":
        first = node.get("premises", [{}])[0].get("fact", [None, None])[1]
        other = catalog.get(first).label if first else "its inverse"
        return f"'{label}' is the inverse of '{other}'"
    if rule == "transitive":
        return f"the relation '{label}' is transitive"
    if rule.startswith("composite:"):
        return f"the rule {rule.split(':', 1)[1]} chains the facts above"
    if rule == "same_object":
        return "both facts above name the same value"
    if rule == "negation_functional":
        return f"'{label}' has only one value for {node['fact'][0]}"
    if rule == "negation_inverse_functional":
        return f"the inverse of '{label}' has only one value for {node['fact'][2]}"
    if rule == "negation_disjoint":
        first = node.get("premises", [{}])[0].get("fact", [None, None])[1]
        other = catalog.get(first).label if first else "another relation"
        return f"'{other}' and '{label}' never hold between the same two"
    if rule == "negation_irreflexive":
        return f"the relation '{label}' never holds between a thing and itself"
    if rule == "negation_partition":  # the last premise makes the object (or, inverse, the subject) a cell
        spec = catalog.get(node["fact"][1])
        if spec.partition is None and spec.inverse_of is not None:
            spec = catalog.get(spec.inverse_of)
        whole = node.get("premises", [{}])[-1].get("fact", [None, None, "the partition"])[2]
        return f"nothing is {spec.label} more than one member of {whole} and no member is {spec.label} another"
    if rule == "negation_complete":
        return f"the KB lists every '{label}' value of {node['fact'][0]} and {node['fact'][2]} is not one of them"
    if rule == "negation_same_object":
        return "the facts above name different values of a relation that has only one"
    if rule.startswith("negation"):
        return "an explicit negative fact says so"
    return f"the rule {rule}"


def reasoning_lines(proof: Proof | None, catalog: Catalog) -> list[str]:
    """A labelled proof as plain sentences, premises before conclusions (the gold reasoning).

    Known facts are stated as they are; each rule step adds "Since <why>, <conclusion>".
    Repeated sentences are said once.
    """
    lines: list[str] = []

    def walk(node: Proof) -> None:
        for p in node.get("premises", ()):
            walk(p)
        text = str(node["text"])
        if node["rule"] not in LEAF_RULES:
            text = f"Since {_why(node, catalog)}, {text[0].lower() + text[1:] if text[:4] == 'The ' else text}"
        if text not in lines:
            lines.append(text)

    if proof is not None:
        walk(proof)
    return lines


def proof_leaves(proof: dict[str, Any]) -> list[list[str]]:
    """The ground-truth base facts of a labelled proof, as [subject, relation, object] (negative: 'not')."""
    if "premises" not in proof:
        s, r, o = proof["fact"]
        return [[s, r if proof["rule"] == "fact" else f"not {r}", o]]
    out: list[list[str]] = []
    for p in proof["premises"]:
        out.extend(x for x in proof_leaves(p) if x not in out)
    return out
