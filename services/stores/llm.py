"""The LLM client factory: OpenAI, or any OpenAI-compatible endpoint (Ollama, vLLM…), when configured."""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from openai import OpenAI
    from openai.types.chat import ChatCompletionMessageParam

from services.errors import ConfigError, WorkbenchError
from services.redaction import scrub, secret_values
from services.settings import Settings


class LLMError(WorkbenchError):
    """The LLM endpoint failed or answered with something unusable."""


class LLMClient:
    """A thin wrapper over ``openai.OpenAI`` for JSON answers and streamed text.

    The ``openai`` client (a second of imports) is made on the first request, so
    building the services costs nothing for commands that never ask the LLM.
    """

    def __init__(self, settings: Settings) -> None:
        if not settings.llm_configured:
            raise ConfigError("No LLM is configured: set OPENAI_API_KEY or OPENAI_BASE_URL.")
        self.model = settings.llm_model
        self._settings = settings
        self._secrets = secret_values(settings)  # an endpoint may echo the key in its error text
        self._openai: OpenAI | None = None
        self._lock = threading.Lock()

    @property
    def _client(self) -> OpenAI:
        with self._lock:
            if self._openai is None:
                from openai import OpenAI

                settings = self._settings
                self._openai = OpenAI(
                    api_key=settings.openai_api_key.get_secret_value() if settings.openai_api_key else "not-needed",
                    base_url=settings.openai_base_url, timeout=settings.llm_timeout, max_retries=1,
                )
            return self._openai

    def json_chat(self, system: str, user: str, *, image: bytes | None = None,
                  image_type: str = "image/png") -> dict[str, Any]:
        """One chat completion that must answer a JSON object; raises :class:`LLMError` otherwise.

        With ``image``, the picture goes along as a data URL (the vision message format).
        """
        import base64

        from openai import OpenAIError

        content: Any = user
        if image is not None:
            url = f"data:{image_type};base64,{base64.b64encode(image).decode()}"
            content = [{"type": "text", "text": user}, {"type": "image_url", "image_url": {"url": url}}]
        try:
            response = self._client.chat.completions.create(
                model=self.model, temperature=0, response_format={"type": "json_object"},
                messages=[{"role": "system", "content": system}, {"role": "user", "content": content}],
            )
        except OpenAIError as exc:
            raise LLMError(scrub(f"The LLM request failed: {exc.__class__.__name__}: {exc}", self._secrets)) from exc
        content = (response.choices[0].message.content or "").strip() if response.choices else ""
        if content.startswith("```"):
            content = content.strip("`").removeprefix("json").strip()
        try:
            value = json.loads(content)
        except json.JSONDecodeError as exc:
            raise LLMError(f"The LLM did not answer valid JSON ({exc.msg}).") from exc
        if not isinstance(value, dict):
            raise LLMError("The LLM answered JSON that is not an object.")
        return value


    def stream_chat(self, messages: list[dict[str, Any]]) -> Any:
        """Yield the answer's text as it streams in; raises :class:`LLMError` on failure."""
        from openai import OpenAIError

        try:
            stream = self._client.chat.completions.create(
                model=self.model, temperature=0.1, messages=cast("list[ChatCompletionMessageParam]", messages), stream=True)
            for chunk in stream:
                if chunk.choices and chunk.choices[0].delta.content:
                    yield chunk.choices[0].delta.content
        except OpenAIError as exc:
            raise LLMError(scrub(f"The LLM request failed: {exc.__class__.__name__}: {exc}", self._secrets)) from exc


def create_llm(settings: Settings) -> LLMClient | None:
    """The configured LLM client, or None when no LLM is configured (the offline paths apply)."""
    return LLMClient(settings) if settings.llm_configured else None
