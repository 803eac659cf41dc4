"""The UI in a real browser: verify a pair (verdict, claim highlights, proof), run a batch and download it.

The Chat tab's banner states are checked on real verdicts: refuted (red, NON-FACTUAL) and not verified
(grey, the lean in small print) for a pair nothing the verifier can check decides.

With `DROWZEE_SCREENSHOTS=DIR` set, a full-page PNG of each tab is saved there (`make screenshots`
writes `docs/screenshots/`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.conftest import peers_path

pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.slow]
SHOTS = os.environ.get("DROWZEE_SCREENSHOTS")
WAIT_MS = 240_000
JOB_WAIT_MS = 600_000
"""A benchmark job is its own `drowzee` process (own Prolog, own models): on a loaded machine it takes minutes."""


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


@pytest.fixture
def page(server: str, browser: Any) -> Any:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    pg = ctx.new_page()
    pg.goto(server + "/")
    pg.wait_for_selector("#chat-query", timeout=60_000)
    yield pg
    ctx.close()


def open_tab(page: Any, name: str) -> None:
    page.get_by_role("tab", name=name).click()


def check_pair(page: Any, query: str, response: str, evidence: str = "") -> Any:
    """Type a pair into the Chat tab, press Check, and wait for the verdict banner (or an error box)."""
    page.fill("#chat-query textarea", query)
    page.fill("#chat-response textarea", response)
    page.fill("#chat-evidence textarea", evidence)
    page.click("#chat-check")
    banner = page.locator("#chat-verdict .dz-verdict, #chat-verdict .dz-error").first
    banner.wait_for(timeout=WAIT_MS)
    return banner


def test_verify_a_pair_shows_verdict_highlights_and_proof(page: Any) -> None:
    banner = check_pair(page, "What is the capital of France?", "The capital of France is Lyon.")
    assert "NON-FACTUAL" in banner.inner_text() and "refuted" in banner.inner_text(), banner.inner_text()
    highlights = page.locator("#chat-highlights .dz-claim-contradicted")
    highlights.first.wait_for(timeout=10_000)
    assert "Lyon" in highlights.first.inner_text()
    proofs = page.locator("#chat-proofs")
    assert "Paris" in proofs.inner_text()
    shot(page, "chat")


def test_batch_upload_progress_and_download(page: Any, tmp_path: Path) -> None:
    rows = [
        {"id": "p1", "query": "What is the capital of France?", "response": "Paris.", "label": "FACTUAL"},
        {"id": "p2", "query": "What is the capital of France?", "response": "Lyon.", "label": "NON-FACTUAL"},
        {"id": "p3", "query": "no response here"},
    ]
    src = tmp_path / "pairs.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    open_tab(page, "Batch")
    page.set_input_files("#batch-file input[type=file]", str(src))
    page.click("#batch-start")
    page.locator("#batch-progress-text").get_by_text("done").wait_for(timeout=WAIT_MS)
    assert "3 / 3 rows" in page.locator("#batch-progress-text").inner_text()
    assert "always NON-FACTUAL" in page.locator("#batch-metrics").inner_text()
    assert "missing field" in page.locator("#batch-results").inner_text()
    shot(page, "batch")
    with page.expect_download() as info:
        page.click("#batch-download")
    out = tmp_path / "results.jsonl"
    info.value.save_as(out)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(r["row"] for r in records) == [1, 2, 3]
    assert {r["id"]: r.get("verdict", {}).get("label") for r in records}["p2"] == "NON-FACTUAL"
    page.reload()
    page.wait_for_selector("#chat-query", timeout=60_000)
    open_tab(page, "Batch")
    page.locator("#batch-progress-text").get_by_text("3 / 3 rows").wait_for(timeout=30_000)


def field(page: Any, elem_id: str) -> Any:
    return page.locator(f"#{elem_id} textarea, #{elem_id} input").first


def test_knowledge_base_search_and_proof(page: Any) -> None:
    open_tab(page, "Knowledge base")
    page.wait_for_function("document.querySelector('#kb-stats').innerText.includes('entities')", timeout=WAIT_MS)
    field(page, "kb-search").fill("Paris")
    field(page, "kb-search").press("Enter")
    page.wait_for_function("document.querySelectorAll('#kb-results div[role=row]').length > 1", timeout=60_000)
    assert "Paris" in page.locator("#kb-results").inner_text()
    field(page, "kb-prove-subject").fill("Paris")
    field(page, "kb-prove-object").fill("Europe")
    page.click("#kb-prove-button")
    page.wait_for_function("document.querySelector('#kb-proof').innerText.includes('Europe')", timeout=60_000)
    proof = page.locator("#kb-proof").inner_text().lower()
    assert "supported" in proof and "paris" in proof
    shot(page, "knowledge_base")


def test_benchmark_on_recorded_answers_shows_its_report(page: Any) -> None:
    answers = peers_path("drowzee_responses", "vicuna-13b-v1.5", "history.json")
    open_tab(page, "Benchmark")
    page.get_by_label("Recorded answers").check()
    page.locator("#bench-answers input[type=file]").set_input_files(str(answers))
    field(page, "bench-answers-model").fill("vicuna-13b-v1.5")
    page.locator("#bench-limit input").fill("3")
    page.get_by_label("facts").check()
    page.click("#bench-run")
    shown = "document.querySelector('#bench-report').innerText.includes('Closed loop')"
    try:
        page.wait_for_function(shown, timeout=WAIT_MS)
    except PlaywrightTimeout:
        # Seen in 2 of 4 runs after a Chat check in another page (2026-11-25, cause not found): the run
        # starts and finishes but this page's view is not updated. A user reopens the tab and picks the
        # run from the list; the run and its report must be there.
        page.reload()
        page.wait_for_selector("#chat-query", timeout=60_000)
        open_tab(page, "Benchmark")
        page.locator("#bench-jobs input").click()
        page.get_by_role("option").first.click()
        page.wait_for_function(shown, timeout=WAIT_MS)
    report = page.locator("#bench-report").inner_text()
    assert "hallucination" in report.lower() and "precision" in report.lower()
    shot(page, "benchmark")
    open_tab(page, "Train")
    page.locator("#train-adapters").wait_for(timeout=30_000)
    shot(page, "train")


def test_banner_states_not_verified_and_refuted(page: Any) -> None:
    banner = check_pair(page, "Who discovered oxygen?", "Oxygen was discovered by Isaac Newton.")
    text = banner.inner_text()
    assert "dz-undecided" in (banner.get_attribute("class") or ""), text
    assert "Not verified" in text and "lean:" in text and "not a finding" in text, text
    assert "FACTUAL" not in text.split("\n")[0], text  # the head says "Not verified", not a label
    claims = page.locator("#chat-highlights")
    claims.locator(".dz-claim-unknown").first.wait_for(timeout=10_000)
    assert "not decided" in claims.inner_text(), claims.inner_text()
    shot(page, "chat_undecided")
    banner = check_pair(page, "What is the year of birth of Hirohito?", "Hirohito was born in 1886.")
    page.locator("#chat-verdict .dz-nonfactual").wait_for(timeout=WAIT_MS)
    text = page.locator("#chat-verdict .dz-verdict").inner_text()
    assert "NON-FACTUAL" in text and "refuted" in text and "Not verified" not in text, text
    refuted = page.locator("#chat-highlights .dz-row-contradicted")
    refuted.first.wait_for(timeout=10_000)
    assert "proved" in refuted.first.inner_text(), refuted.first.inner_text()
    shot(page, "chat_refuted")


def test_evidence_that_never_mentions_a_name_is_unsupported_and_an_unaligned_claim_not_verified(page: Any) -> None:
    evidence = "The Varnholt ferry, run by the Lindqvist company since 1987, crosses the fjord to Hesby in 40 minutes."
    banner = check_pair(page, "Who runs the Varnholt ferry?", "The Varnholt ferry is run by Osterman Lines.", evidence)
    text = banner.inner_text()
    assert "NON-FACTUAL" in text and "unsupported" in text, text
    assert "The evidence does not mention Osterman Lines." in page.locator("#chat-verdict").inner_text()
    shot(page, "chat_unsupported")
    check_pair(page, "Where does the Varnholt ferry go?", "It sails across to Hesby.", evidence)
    banner = page.locator("#chat-verdict .dz-undecided")  # the earlier banner stays until this one replaces it
    banner.wait_for(timeout=WAIT_MS)
    text = banner.inner_text()
    assert "Not verified" in text, text
    assert 'The evidence never says "sails"' in page.locator("#chat-verdict").inner_text()
    shot(page, "chat_evidence_open")


def _refuted_proofs(page: Any, query: str, response: str) -> str:
    """Check a pair in the Chat tab, wait for a NON-FACTUAL verdict with a refuted claim; the proofs' text."""
    banner = check_pair(page, query, response)
    assert "NON-FACTUAL" in banner.inner_text(), banner.inner_text()
    page.locator("#chat-highlights .dz-claim-contradicted").first.wait_for(timeout=10_000)
    return str(page.locator("#chat-proofs").inner_text())


def test_an_incomplete_list_is_refuted_by_the_member_it_leaves_out(page: Any) -> None:
    proofs = _refuted_proofs(
        page,
        "What are all X such that X observes the public holiday Independence Day"
        " and an official language of X is Kazakh?",
        "The only X that meets the given criteria is Myanmar.",
    )
    assert "Kazakhstan" in proofs and "not complete" in proofs, proofs
    shot(page, "chat_set")


def test_a_place_in_another_country_is_refuted_by_the_partition(page: Any) -> None:
    proofs = _refuted_proofs(page, "In which country is Lyon?", "Lyon is located in Germany.")
    assert "Lyon is located in France" in proofs and "member of United Nations" in proofs, proofs
    shot(page, "chat_partition")


def test_a_border_a_complete_list_leaves_out_is_refuted(page: Any) -> None:
    proofs = _refuted_proofs(page, "Does Portugal share a border with Italy?", "Yes, Portugal borders Italy.")
    assert "Portugal shares a border with Spain" in proofs and "negation_complete" in proofs, proofs
    explanation = str(page.locator("#chat-verdict").inner_text())
    assert "taken as complete" in explanation, explanation
    shot(page, "chat_complete_list")
