"""The Chat tab's "Chat with a model" side: talk to the `target` role (no Gradio here, so it is unit-tested)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from drowzee_core.errors import DrowzeeError


class TargetError(DrowzeeError):
    """The target model could not answer; the message says why."""


def message_text(message: Mapping[str, Any]) -> str:
    """The text of a chat message whose content is a string or Gradio's list of content parts."""
    content = message.get("content", "")
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else [content]
    texts = [str(p.get("text", "")) if isinstance(p, Mapping) else str(p) for p in parts]
    return "\n".join(t for t in texts if t)


def plain_history(history: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The chat as `{"role", "content"}` text messages (user and assistant turns only)."""
    return [
        {"role": str(m["role"]), "content": message_text(m)}
        for m in history
        if m.get("role") in ("user", "assistant") and message_text(m)
    ]


@dataclass(frozen=True, slots=True)
class Answer:
    """The target model's reply and who gave it."""

    text: str
    model: str
    seconds: float


def ask_target(messages: Sequence[Mapping[str, str]]) -> Answer:
    """Ask the `target` role (starting the local model server first when the role points at it).

    The chat goes as it is, without a system prompt (small local models echo one back). On the local
    server a timed-out call is not retried: it runs on the same machine and would time out again.

    Raises:
        TargetError: The role is misconfigured, the server does not start, the call fails or the answer is empty.

    """
    from drowzee_core.llm.roles import chat_model, load_role

    try:
        role = load_role("target", config=roles_file())
        if role.is_local:
            from drowzee_core.llm.launch import ensure_local_server

            ensure_local_server()
            role = role.model_copy(update={"max_retries": 0})
        started = time.perf_counter()
        reply = chat_model(role, cache=False).invoke([dict(m) for m in messages])
    except Exception as exc:
        raise TargetError(f"The target model could not answer: {type(exc).__name__}: {exc}") from exc
    text = reply.content if isinstance(reply.content, str) else message_text({"content": reply.content})
    if not text.strip():
        raise TargetError(f"The target model ({role.model}) returned an empty answer")
    return Answer(text=text.strip(), model=role.model, seconds=time.perf_counter() - started)


def target_needs_start() -> bool:
    """Whether the target role points at the local model server and none is up (the answer then waits for it)."""
    from drowzee_core.llm.launch import healthy
    from drowzee_core.llm.roles import load_role

    try:
        return load_role("target", config=roles_file()).is_local and not healthy()
    except DrowzeeError:
        return False


def roles_file() -> Path | None:
    """The role file the verifier uses (`DROWZEE_VERIFY_ROLES`), or None for the default lookup."""
    from agents.verifier.settings import SettingsError, VerifierSettings

    try:
        return VerifierSettings.load().roles
    except SettingsError:
        return None


def answer_line(answer: Answer) -> str:
    """The progress line of the target model's answer."""
    return (
        f"<div class='dz-node'>&#10003; <strong>target</strong>: <code>{escape(answer.model)}</code> answered"
        f" <span class='dz-muted'>&middot; {answer.seconds:.2f} s</span></div>"
    )


def with_answer(history: Sequence[Mapping[str, Any]], answer: str) -> list[dict[str, Any]]:
    """The chat with the assistant's answer appended."""
    return [*map(dict, history), {"role": "assistant", "content": answer}]


__all__ = [
    "Answer",
    "TargetError",
    "answer_line",
    "ask_target",
    "message_text",
    "plain_history",
    "roles_file",
    "target_needs_start",
    "with_answer",
]
