"""The assistant's language-model layer: contracts, the OpenAI-compatible client, and its fakes.

Importing this package is cheap: the ``openai`` package loads only when a client is built.
"""

from smartmate.llm.assembly import OnDelta
from smartmate.llm.client import ClientSettings, LLMClient, OpenAICompatibleClient, UsageRecorder
from smartmate.llm.contracts import (
    STAGES,
    ChatMessage,
    Completion,
    ReasoningDelta,
    StageConfig,
    StreamChunk,
    TextDelta,
    ToolCall,
    ToolCallDelta,
    ToolSpec,
    Usage,
)
from smartmate.llm.errors import (
    LLMError,
    LLMNotConfigured,
    LLMRequestRejected,
    LLMStreamInterrupted,
    LLMTimeout,
    LLMUnavailable,
    MalformedOutput,
)
from smartmate.llm.json_extract import extract_json_object
from smartmate.llm.provider import get_llm_client, reset_llm_client, set_llm_client_for_tests

__all__ = [
    "STAGES", "ChatMessage", "ClientSettings", "Completion", "LLMClient", "LLMError", "LLMNotConfigured",
    "LLMRequestRejected", "LLMStreamInterrupted", "LLMTimeout", "LLMUnavailable", "MalformedOutput",
    "OnDelta", "OpenAICompatibleClient", "ReasoningDelta", "StageConfig", "StreamChunk", "TextDelta",
    "ToolCall", "ToolCallDelta", "ToolSpec", "Usage", "UsageRecorder", "extract_json_object",
    "get_llm_client", "reset_llm_client", "set_llm_client_for_tests",
]
