"""OpenAI-style logprobs on the local server: litserve's `OpenAISpec` with `logprobs` / `top_logprobs`.

litserve 0.2's `OpenAISpec` neither reads `logprobs` / `top_logprobs` from a request (its request model
drops unknown fields) nor has a `logprobs` field on a non-streaming choice. `LogprobOpenAISpec` adds
both: the endpoint parses requests into `LogprobRequest`, so `LitAPI.predict` sees `request.logprobs`
and `request.top_logprobs`; `predict` puts `{"content": [...]}` under the key `logprobs` of the message
it yields (`token_logprobs` builds the entries); and the non-streaming response carries it on the choice,
where OpenAI puts it and where ChatOpenAI reads it into `response_metadata["logprobs"]`. Streaming
responses carry no logprobs.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Sequence
from typing import Any

import litserve as ls
from fastapi import BackgroundTasks, HTTPException
from litserve.specs.openai import (
    ChatCompletionRequest,
    ChatCompletionResponse,
    ChatCompletionResponseChoice,
    ChatMessage,
    UsageInfo,
)
from litserve.utils import LitAPIStatus
from pydantic import Field

log = logging.getLogger(__name__)

MAX_TOP_LOGPROBS = 20
"""OpenAI's limit on `top_logprobs`."""


class LogprobRequest(ChatCompletionRequest):  # type: ignore[misc]
    """A chat completion request with OpenAI's `logprobs` and `top_logprobs`."""

    logprobs: bool | None = False
    top_logprobs: int | None = Field(default=None, ge=0, le=MAX_TOP_LOGPROBS)


class LogprobChoice(ChatCompletionResponseChoice):  # type: ignore[misc]
    """A non-streaming choice with its logprobs (`{"content": [...]}`), as OpenAI returns it."""

    logprobs: dict[str, Any] | None = None


class LogprobResponse(ChatCompletionResponse):  # type: ignore[misc]
    """A chat completion whose choices may carry logprobs."""

    choices: list[LogprobChoice]


def logprob_entry(token: str, logprob: float) -> dict[str, Any]:
    """One OpenAI logprob entry: the token, its logprob and its UTF-8 bytes."""
    return {"token": token, "logprob": logprob, "bytes": list(token.encode("utf-8"))}


def token_logprobs(tokenizer: Any, logits: Sequence[Any], token_ids: Sequence[int], top: int) -> list[dict[str, Any]]:
    """OpenAI `logprobs.content` entries of generated tokens, from the model's raw next-token logits.

    Args:
        tokenizer: The model's tokenizer (decodes one token id at a time).
        logits: One tensor of raw logits per generated step (`generate(output_logits=True)`), batch of 1.
        token_ids: The generated token ids, one per step.
        top: How many alternatives to list per token (0 to 20), most probable first.

    Returns:
        Per generated token: its text, logprob and bytes, and `top_logprobs`, the `top` most probable
        tokens of that step with theirs. Logprobs are the log-softmax of the logits in float64, so the
        probabilities of any set of alternatives sum to at most 1.

    """
    import torch

    out = []
    for step, token_id in zip(logits, token_ids, strict=True):
        logprobs = torch.log_softmax(step[0].double(), dim=-1)
        entry = logprob_entry(tokenizer.decode([int(token_id)]), float(logprobs[int(token_id)]))
        best = torch.topk(logprobs, k=top) if top > 0 else None
        alternatives = [] if best is None else zip(best.values.tolist(), best.indices.tolist(), strict=True)
        entry["top_logprobs"] = [logprob_entry(tokenizer.decode([int(i)]), float(lp)) for lp, i in alternatives]
        out.append(entry)
    return out


def kept_tokens(tokenizer: Any, token_ids: Sequence[int], text: str) -> int:
    """How many generated tokens start inside `text`, the answer left after cutting at a stop string."""
    kept = 0
    for i in range(len(token_ids)):
        if len(tokenizer.decode(list(token_ids[:i]), skip_special_tokens=True)) >= len(text):
            break
        kept = i + 1
    return kept


class LogprobOpenAISpec(ls.OpenAISpec):  # type: ignore[misc]
    """`OpenAISpec` whose requests take `logprobs` / `top_logprobs` and whose choices return them."""

    def __getstate__(self) -> dict[str, Any]:
        """Without asyncio objects (requests in flight, the last one's queues): a restarted worker gets a copy."""
        state: dict[str, Any] = super().__getstate__()
        return state | {"queues": [], "events": [], "response_buffer": {}}

    async def chat_completion(self, request: LogprobRequest, background_tasks: BackgroundTasks) -> Any:
        """The `/v1/chat/completions` endpoint; the annotation makes FastAPI parse a `LogprobRequest`."""
        return await super().chat_completion(request, background_tasks)

    async def non_streaming_completion(
        self, request: ChatCompletionRequest, generator_list: list[AsyncGenerator[Any, None]]
    ) -> LogprobResponse:
        """`OpenAISpec.non_streaming_completion`, keeping the `logprobs` that `predict` returned."""
        import json

        try:
            usage_infos = []
            choices = []
            for i, streaming_response in enumerate(generator_list):
                texts: list[str] = []
                content: list[dict[str, Any]] = []
                tool_calls = None
                has_logprobs = False
                async for response, status in streaming_response:
                    if status == LitAPIStatus.ERROR and isinstance(response, HTTPException):
                        raise response
                    if status == LitAPIStatus.ERROR:
                        log.error("error in a non-streaming response: %s", response)
                        raise HTTPException(status_code=500)
                    encoded = json.loads(response)
                    message = ChatMessage(**encoded)
                    usage_infos.append(UsageInfo(**encoded))
                    if message.content is not None:
                        texts.append(str(message.content))
                    tool_calls = message.tool_calls or tool_calls
                    if isinstance(encoded.get("logprobs"), dict):
                        has_logprobs = True
                        content.extend(encoded["logprobs"].get("content") or [])
                msg = {"role": "assistant", "content": "".join(texts), "tool_calls": tool_calls}
                logprobs = {"content": content} if has_logprobs else None
                choices.append(LogprobChoice(index=i, message=msg, finish_reason="stop", logprobs=logprobs))
            return LogprobResponse(model=request.model, choices=choices, usage=sum(usage_infos))
        except HTTPException:
            raise
        except Exception as exc:  # boundary: the client gets a 500, the log gets the reason
            log.error("error in a non-streaming response: %s", exc, exc_info=True)
            raise HTTPException(status_code=500) from exc


__all__ = ["LogprobOpenAISpec", "LogprobRequest", "LogprobResponse", "kept_tokens", "token_logprobs"]
