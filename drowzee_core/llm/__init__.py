"""Model access: named roles -> ChatOpenAI clients, the local model server, the model-under-test runner.

`load_role` / `chat_model` build the one client per role (seeker, guardian, manager, extractor,
target) from config, environment and defaults; `serve` / `ensure_local_server` run the embedded
OpenAI-compatible server with base models and LoRA adapters (`find_adapters`); `run_cases` sends
generated cases to a role with an answer cache (`AnswerCache`); `embedder` gives offline
embeddings; `LLMExtractor` turns text into triples through the extractor role. Names load on first use.
"""

from typing import TYPE_CHECKING

from drowzee_core.lazy import lazy_exports

if TYPE_CHECKING:
    from drowzee_core.llm.embeddings import SentenceEmbedder, embedder
    from drowzee_core.llm.extractor import ExtractionError, LLMExtractor
    from drowzee_core.llm.launch import ensure_local_server, stop_server
    from drowzee_core.llm.local import BASE_MODELS, Adapter, find_adapters, read_adapter
    from drowzee_core.llm.roles import ROLES, RoleConfig, RoleError, chat_model, load_role
    from drowzee_core.llm.runner import AnswerCache, RunStats, run_cases
    from drowzee_core.llm.server import serve

_EXPORTS = {
    "SentenceEmbedder": "embeddings",
    "embedder": "embeddings",
    "ExtractionError": "extractor",
    "LLMExtractor": "extractor",
    "BASE_MODELS": "local",
    "Adapter": "local",
    "find_adapters": "local",
    "read_adapter": "local",
    "ROLES": "roles",
    "RoleConfig": "roles",
    "RoleError": "roles",
    "chat_model": "roles",
    "load_role": "roles",
    "AnswerCache": "runner",
    "RunStats": "runner",
    "run_cases": "runner",
    "ensure_local_server": "launch",
    "serve": "server",
    "stop_server": "launch",
}
__getattr__ = lazy_exports(__name__, {k: f"{__name__}.{m}" for k, m in _EXPORTS.items()})
__all__ = [
    "BASE_MODELS",
    "ROLES",
    "Adapter",
    "AnswerCache",
    "ExtractionError",
    "LLMExtractor",
    "RoleConfig",
    "RoleError",
    "RunStats",
    "SentenceEmbedder",
    "chat_model",
    "embedder",
    "ensure_local_server",
    "find_adapters",
    "load_role",
    "read_adapter",
    "run_cases",
    "serve",
    "stop_server",
]
