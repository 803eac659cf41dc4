"""The embedded OpenAI-compatible model server (litserve `OpenAISpec`), on loopback.

Serves, under their model names, the base models that ship inside PyPI packages (`gemma3-270m`,
`smollm2-135m`; see `drowzee_core.llm.local`) and the LoRA adapters found by `find_adapters` under the
names in their manifests (`guardian`, ...), the way vLLM serves LoRA modules: the base model is loaded
once, each adapter is attached to it by name and switched on per request; a request for the base model
runs with the adapters disabled. Generation is greedy; `max_tokens` and `stop` are honoured; token counts
come back in `usage`; `logprobs=True` (with `top_logprobs`, up to 20) returns OpenAI-style logprobs of the
generated tokens, from the model's next-token distribution (`drowzee_core.llm.openai_logprobs`). A model
with a chat template gets its messages through it; a base model gets the message texts joined by blank
lines.

Clients start and stop it with `drowzee_core.llm.launch` (leases, health, `ensure_local_server`). A dead
inference worker is noticed and restarted, its requests fail at once, and the workers die with the server
(`drowzee_core.llm.liveness`). One-token requests of an adapter with an ONNX export are answered from it
without torch (`drowzee_core.llm.next_token`).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import litserve as ls
from fastapi import HTTPException

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.leases import live_leases, take_lease
from drowzee_core.llm.liveness import die_with_parent, run_server
from drowzee_core.llm.local import (
    BASE_MODELS,
    LOCAL_HOST,
    LOCAL_PORT,
    Adapter,
    find_adapters,
    load_base,
    render_messages,
)
from drowzee_core.llm.next_token import NextTokenModel, find_export
from drowzee_core.llm.openai_logprobs import kept_tokens, logprob_entry, token_logprobs
from drowzee_core.llm.prefix_cache import PrefixCache

log = logging.getLogger(__name__)


def _cut(text: str, stop: list[str]) -> str:
    ends = [i for s in stop if s and (i := text.find(s)) >= 0]
    return text[: min(ends)] if ends else text


class ModelAPI(ls.LitAPI):  # type: ignore[misc]
    """Greedy generation from base models and their LoRA adapters (each loaded on first request)."""

    def __init__(self, adapter_dirs: list[Path] | None = None) -> None:
        super().__init__()
        self.adapter_dirs = list(adapter_dirs or [])

    def setup(self, device: str) -> None:
        """Called once per worker: adapters are listed and their one-token ONNX exports loaded.

        Torch models load on the first request that needs them; an export is loaded here, so the
        server's `/health` says ready only once one-token requests can be answered at once.
        """
        die_with_parent()
        if not logging.getLogger().handlers:  # a spawned worker: its lines go to the server's log too
            logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        self.adapters: dict[str, Adapter] = find_adapters(self.adapter_dirs)
        self.models: dict[str, tuple[Any, Any]] = {}  # base name -> (model, tokenizer); a PeftModel once adapted
        self.attached: set[str] = set()
        self.prefix_caches: dict[str, PrefixCache] = {}
        self.lock = threading.Lock()
        self.one_token: dict[str, NextTokenModel] = {}
        for name, adapter in self.adapters.items():
            folder = find_export(adapter)
            if folder is None:
                log.warning("%s has no ONNX export; one-token requests run with torch (`drowzee models export`)", name)
                continue
            try:
                self.one_token[name] = NextTokenModel.load(folder)
            except Exception:  # the torch path gives the same answers, more slowly: serve on, say why
                log.exception("the ONNX export of %s at %s did not load; its requests run with torch", name, folder)
                continue
            log.info("one-token requests of %s are answered from its ONNX export %s", name, folder)
        log.info("serving base models %s and adapters %s", sorted(BASE_MODELS), sorted(self.adapters))

    def _get(self, name: str) -> tuple[Any, Any, str | None]:
        """(model, tokenizer, adapter name or None) for a requested model name."""
        adapter = self.adapters.get(name)
        base = adapter.base if adapter else name
        if base not in BASE_MODELS:
            raise HTTPException(404, f"unknown model {name!r}; served: {sorted(BASE_MODELS) + sorted(self.adapters)}")
        if base not in self.models:
            self.models[base] = load_base(base)
        if adapter and name not in self.attached:
            from peft import PeftModel

            model, tok = self.models[base]
            if isinstance(model, PeftModel):
                model.load_adapter(str(adapter.path), adapter_name=name)
            else:
                model = PeftModel.from_pretrained(model, str(adapter.path), adapter_name=name)
            self.models[base] = (model.eval(), tok)
            self.attached.add(name)
            log.info("attached adapter %s (%s) to %s", name, adapter.path, base)
        model, tok = self.models[base]
        return model, tok, (name if adapter else None)

    def predict(self, request: Any, **_: Any) -> Iterator[dict[str, Any]]:
        """One chat completion with token counts, and the tokens' logprobs when the request asks for them."""
        messages = [
            {"role": m.role, "content": m.content if isinstance(m.content, str) else str(m.content)}
            for m in request.messages
        ]
        limit = request.max_completion_tokens or request.max_tokens or 256
        stop = request.stop if isinstance(request.stop, list) else [request.stop] if request.stop else []
        want_logprobs = bool(getattr(request, "logprobs", False))
        exported = self.one_token.get(request.model)
        if exported is not None and int(limit) == 1:
            yield _one_token(exported, messages, stop, want_logprobs, int(getattr(request, "top_logprobs", None) or 0))
            return
        import torch

        with self.lock:
            model, tok, adapter = self._get(request.model)
            ids = tok(render_messages(tok, messages), return_tensors="pt")
            if adapter:
                model.set_adapter(adapter)
            adapted = any(self.adapters[a].base == request.model for a in self.attached)
            quiet = model.disable_adapter() if adapter is None and adapted else contextlib.nullcontext()
            prompt_ids = ids["input_ids"][0].tolist()
            if request.model not in self.prefix_caches:  # the prompt-prefix cache of each served model
                self.prefix_caches[request.model] = PrefixCache.of(model)
            prefixes = self.prefix_caches[request.model]
            with torch.inference_mode(), quiet:
                out = model.generate(
                    **ids,
                    max_new_tokens=int(limit),
                    do_sample=False,
                    pad_token_id=tok.pad_token_id or tok.eos_token_id,
                    stop_strings=stop or None,
                    tokenizer=tok if stop else None,
                    output_logits=want_logprobs,
                    return_dict_in_generate=True,
                    cache=prefixes.start(request.model, prompt_ids),
                )
            prefixes.remember(request.model, prompt_ids, getattr(out, "cache", None))
        new = out.sequences[0][ids["input_ids"].shape[1] :]
        full = tok.decode(new, skip_special_tokens=True)
        text = _cut(full, stop)
        n_in, n_out = int(ids["input_ids"].shape[1]), int(new.shape[0])
        answer: dict[str, Any] = {
            "role": "assistant",
            "content": text,
            "prompt_tokens": n_in,
            "completion_tokens": n_out,
            "total_tokens": n_in + n_out,
        }
        if want_logprobs:
            token_ids = new.tolist()
            kept = len(token_ids) if text == full else kept_tokens(tok, token_ids, text)
            top = int(getattr(request, "top_logprobs", None) or 0)
            answer["logprobs"] = {"content": token_logprobs(tok, out.logits[:kept], token_ids[:kept], top)}
        yield answer


def _one_token(
    exported: NextTokenModel, messages: list[dict[str, str]], stop: list[str], want_logprobs: bool, top: int
) -> dict[str, Any]:
    """The answer of a one-token request from an ONNX export, shaped as the torch path shapes it."""
    token, full, logprob, alternatives, n_in = exported.answer(render_messages(None, messages), top)
    text = _cut(full, stop)
    answer: dict[str, Any] = {
        "role": "assistant",
        "content": text,
        "prompt_tokens": n_in,
        "completion_tokens": 1,
        "total_tokens": n_in + 1,
    }
    if want_logprobs:
        kept = text == full or bool(text)  # as `kept_tokens` counts a token a stop string cuts into
        entry = logprob_entry(exported.decode(token), logprob) | {"top_logprobs": alternatives}
        answer["logprobs"] = {"content": [entry] if kept else []}
    return answer


def serve(
    host: str = LOCAL_HOST, port: int = LOCAL_PORT, adapters: list[Path] | None = None, parent_pid: int | None = None
) -> None:
    """Run the server in this process until interrupted; `adapters` are extra adapter folders.

    With `parent_pid` (set by `ensure_local_server`) that process holds a lease, and the server and its
    workers stop once no lease holder is alive, even if the holders were killed without running their
    exit handlers.
    """
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise DrowzeeError("the local model server binds to loopback only; put a gateway in front to expose it")
    find_adapters(adapters)  # fail here, with the reason, rather than inside a worker
    if parent_pid:
        take_lease(port, parent_pid)
        threading.Thread(target=_exit_when_unused, args=(port,), daemon=True).start()
    run_server(ModelAPI(adapters), host, port)


LEASE_CHECK_S = 2.0
"""How often the server looks for a live lease holder."""


def _exit_when_unused(port: int) -> None:
    while True:
        time.sleep(LEASE_CHECK_S)
        if not live_leases(port):
            log.warning("no live process holds a lease on port %s; stopping the model server", port)
            os.killpg(os.getpgrp(), signal.SIGTERM)
            return


def main() -> None:
    """`python -m drowzee_core.llm.server [--host H] [--port P]`."""
    parser = argparse.ArgumentParser(description="Drowzee's local OpenAI-compatible model server")
    parser.add_argument("--host", default=LOCAL_HOST)
    parser.add_argument("--port", type=int, default=LOCAL_PORT)
    parser.add_argument("--adapter", type=Path, action="append", default=[], help="extra LoRA adapter folder")
    parser.add_argument("--parent-pid", type=int, default=None, help="stop when this process is gone")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    serve(args.host, args.port, args.adapter, args.parent_pid)
    logging.shutdown()
    os._exit(0)  # the HTTP thread is not a daemon; the workers are already stopped


if __name__ == "__main__":
    main()
