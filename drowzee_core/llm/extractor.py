"""The `extractor` role: (subject, predicate, object) triples from reasoning text by an LLM.

Structured output through langchain's `PydanticOutputParser`: the prompt carries the JSON schema and
the reply is validated against it. It works with any OpenAI-compatible endpoint, including the local
server (which has no `response_format` support). A reply that does not parse raises `ExtractionError`
with the reason; callers record it per row instead of treating it as "no triples".
"""

from __future__ import annotations

from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.output_parsers import PydanticOutputParser
from pydantic import BaseModel, Field

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.triple import Triple
from prompts import render

MAX_TEXT_CHARS = 8000


class ExtractionError(DrowzeeError):
    """The extractor model's reply is not the requested JSON."""


class _Triple(BaseModel):
    subject: str = Field(min_length=1, max_length=300)
    predicate: str = Field(min_length=1, max_length=200)
    object: str = Field(min_length=1, max_length=300)


class _Triples(BaseModel):
    triples: list[_Triple] = Field(default_factory=list, max_length=100)


class LLMExtractor:
    """Triples from text by a chat model (the `extractor` role), validated against a schema."""

    def __init__(self, model: BaseChatModel) -> None:
        self.model = model
        self.parser = PydanticOutputParser(pydantic_object=_Triples)

    def triples(self, text: str) -> list[Triple]:
        """The statements of `text` as triples; raises `ExtractionError` when the reply does not parse."""
        if not text.strip():
            return []
        prompt = render(
            "extract_triples", format_instructions=self.parser.get_format_instructions(), text=text[:MAX_TEXT_CHARS]
        )
        reply = self.model.invoke(prompt)
        content = reply.content if isinstance(reply.content, str) else str(reply.content)
        try:
            parsed = self.parser.parse(content)
        except OutputParserException as exc:
            raise ExtractionError(f"the extractor's reply is not the triples JSON: {str(exc)[:300]}") from exc
        return list(
            dict.fromkeys(Triple(t.subject.strip(), t.predicate.strip(), t.object.strip()) for t in parsed.triples)
        )
