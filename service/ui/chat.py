"""The Chat tab: check one (query, response, evidence) pair, or chat with the target model and check its answers.

Both modes stream: a progress panel gains one line per finished verifier node, then the verdict banner,
the response with its claims highlighted, the evidence, the Prolog proofs and each source's opinion
appear. Bad input and failures (model unreachable, verifier error) show as readable messages.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import gradio as gr

from service.ui.chat_model import (
    EXAMPLES,
    InputError,
    Progress,
    View,
    build_request,
    stream_views,
    waiting,
)
from service.ui.target_chat import (
    TargetError,
    answer_line,
    ask_target,
    plain_history,
    roles_file,
    target_needs_start,
    with_answer,
)

if TYPE_CHECKING:
    from drowzee_core.records.verdict import VerifyRequest
    from service.runtime import Runtime

log = logging.getLogger(__name__)

PAIR = "chat"
"""elem_id prefix (and evidence anchor) of the "Check a pair" mode: `chat-verdict`, `chat-highlights`, ..."""
BOT = "chat-bot"
"""elem_id prefix (and evidence anchor) of the "Chat with a model" mode: `chat-bot-verdict`, ..."""
EXAMPLE_LABELS = [
    "Capital of France (a wrong answer)",
    "Hirohito's year of birth",
    "Two Paris churches, with KG triples",
    "Eiffel Tower, with text evidence",
]
EVIDENCE_HELP = (
    'Optional. Plain text, or JSON: a list of texts, or KG triples [["subject", "relation", "object"], ...].'
    " Without it the verifier uses its knowledge base."
)
Values = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Panels:
    """The verdict panels of one mode, in `View.values()` order."""

    progress: gr.HTML
    verdict: gr.HTML
    highlights: gr.HTML
    evidence: gr.HTML
    proofs: gr.HTML
    opinions: gr.HTML

    def outputs(self) -> list[gr.HTML]:
        """The panels as event outputs."""
        return [self.progress, self.verdict, self.highlights, self.evidence, self.proofs, self.opinions]


def _html(elem_id: str) -> gr.HTML:
    return gr.HTML(value="", elem_id=elem_id, elem_classes=["dz-panel"], js_on_load=None)


def _side_panels(prefix: str) -> tuple[gr.HTML, gr.HTML, gr.HTML, gr.HTML]:
    """Progress, verdict, highlighted response and proofs (beside the inputs)."""
    return (
        _html(f"{prefix}-progress"),
        _html(f"{prefix}-verdict"),
        _html(f"{prefix}-highlights"),
        _html(f"{prefix}-proofs"),
    )


def _lower_panels(side: tuple[gr.HTML, gr.HTML, gr.HTML, gr.HTML], prefix: str) -> Panels:
    """Opinions and evidence (full width, below), completing the mode's panels."""
    progress, verdict, highlights, proofs = side
    opinions = _html(f"{prefix}-opinions")
    evidence = _html(f"{prefix}-evidence-table")
    return Panels(progress, verdict, highlights, evidence, proofs, opinions)


def _verify(runtime: Runtime, request: VerifyRequest, anchor: str, progress: Progress) -> Iterator[View]:
    """Views of one verification as it runs; a failure becomes a readable view (and a warning)."""
    yield waiting(progress, not runtime.health()["verifier_loaded"])
    try:
        yield from stream_views(runtime.stream(request), request.response, progress, anchor)
    except Exception as exc:
        log.exception("verification from the Chat tab failed")
        gr.Warning(f"The verifier failed: {type(exc).__name__}: {exc}")
        yield progress.fail("The verifier failed", f"{type(exc).__name__}: {exc}")


# ---------------------------------------------------------------------------------------------- check a pair
def check_pair(runtime: Runtime, query: str, response: str, evidence: str) -> Iterator[Values]:
    """Stream the panels of one pair's check (bad input: a warning and a message, no check)."""
    progress = Progress()
    try:
        request = build_request(query, response, evidence)
    except InputError as exc:
        gr.Warning(str(exc), title="Cannot check this input")
        yield progress.fail("Cannot check this input", str(exc)).values()
        return
    for view in _verify(runtime, request, PAIR, progress):
        yield view.values()


def _pair_mode(runtime: Runtime) -> None:
    with gr.Row(equal_height=False):
        with gr.Column(scale=5):
            query = gr.Textbox(label="Query", lines=2, elem_id="chat-query", placeholder="The question asked")
            response = gr.Textbox(label="Response", lines=3, elem_id="chat-response", placeholder="The answer to check")
            evidence = gr.Textbox(label="Evidence", lines=3, elem_id="chat-evidence", info=EVIDENCE_HELP)
            with gr.Row():
                check = gr.Button("Check", variant="primary", elem_id="chat-check", scale=3)
                clear = gr.ClearButton(value="Clear", elem_id="chat-clear", scale=1)
            gr.Examples(
                examples=EXAMPLES,
                inputs=[query, response, evidence],
                example_labels=EXAMPLE_LABELS,
                label="Examples: click one, then Check",
                elem_id="chat-examples",
            )
        with gr.Column(scale=6):
            side = _side_panels(PAIR)
    panels = _lower_panels(side, PAIR)
    clear.add([query, response, evidence, *panels.outputs()])

    def run(q: str, r: str, e: str) -> Iterator[Values]:
        yield from check_pair(runtime, q, r, e)

    check.click(
        run,
        [query, response, evidence],
        panels.outputs(),
        api_visibility="private",
        show_progress="minimal",
        show_progress_on=panels.progress,
    )


# ---------------------------------------------------------------------------------------------- chat with a model
def chat_turn(runtime: Runtime, message: str, history: list[dict[str, Any]]) -> Iterator[Values]:
    """Stream one chat turn: the user's message, the target model's answer, then the answer's check.

    Each value is (chat history, message box, *panels).
    """
    text = (message or "").strip()
    if not text:
        gr.Warning("Write a message first.")
        yield (history, message, *View().values())
        return
    chat = [*history, {"role": "user", "content": text}]
    progress = Progress()
    slow = " (starting the local model server first: up to a minute)" if target_needs_start() else ""
    yield (chat, "", *View(progress=progress.html(running=f"asking the target model{slow}")).values())
    try:
        answer = ask_target(plain_history(chat))
    except TargetError as exc:
        gr.Warning(str(exc), title="The model could not answer")
        yield (chat, "", *progress.fail("The model could not answer", str(exc)).values())
        return
    progress.lines.append(answer_line(answer))
    chat = with_answer(chat, answer.text)
    try:
        request = build_request(text, answer.text, None)
    except InputError as exc:
        yield (chat, "", *progress.fail("Cannot check this answer", str(exc)).values())
        return
    for view in _verify(runtime, request, BOT, progress):
        yield (chat, "", *view.values())


def _target_note() -> str:
    from drowzee_core.llm.roles import load_role

    try:
        role = load_role("target", config=roles_file())
    except Exception as exc:
        return f"The `target` role is misconfigured: {exc}"
    where = "the local model server" if role.is_local else role.base_url
    return (
        f"You talk to the `target` role (`{role.model}` on {where}; set `DROWZEE_TARGET_*` to change it)."
        " Each answer is then checked, with your message as the query."
    )


def _chat_mode(runtime: Runtime) -> None:
    with gr.Row(equal_height=False):
        with gr.Column(scale=5):
            gr.Markdown(_target_note(), elem_classes=["dz-muted"])
            bot = gr.Chatbot(
                elem_id="chat-bot",
                label="Chat with the target model",
                height=420,
                feedback_options=None,
                placeholder="Ask the model something factual; its answer is checked.",
            )
            with gr.Row():
                message = gr.Textbox(
                    show_label=False, placeholder="Your message", elem_id="chat-bot-message", scale=5, lines=1
                )
                send = gr.Button("Send", variant="primary", elem_id="chat-bot-send", scale=1)
            clear = gr.ClearButton(value="New chat", elem_id="chat-bot-clear", size="sm")
        with gr.Column(scale=6):
            side = _side_panels(BOT)
    panels = _lower_panels(side, BOT)
    clear.add([bot, message, *panels.outputs()])

    def run(m: str, h: list[dict[str, Any]]) -> Iterator[Values]:
        yield from chat_turn(runtime, m, h)

    outputs = [bot, message, *panels.outputs()]
    for trigger in (send.click, message.submit):
        trigger(
            run,
            [message, bot],
            outputs,
            api_visibility="private",
            show_progress="minimal",
            show_progress_on=panels.progress,
        )


def tab(runtime: Runtime) -> None:
    """The Chat tab: "Check a pair" and "Chat with a model"."""
    with gr.Tab("Chat", id="chat"), gr.Tabs(elem_id="chat-modes"):
        with gr.Tab("Check a pair", id="chat-pair"):
            _pair_mode(runtime)
        with gr.Tab("Chat with a model", id="chat-model"):
            _chat_mode(runtime)


__all__ = ["BOT", "PAIR", "chat_turn", "check_pair", "tab"]
