"""Turn what a model wrote into a clean answer: the one place that reads real models' habits.

Real OpenAI-compatible models do not always answer in the channels the protocol has for it:

- **Thinking in the text.** Qwen, GLM and DeepSeek-R1 distillations open their answer with
  ``<think>…</think>`` (or ``<thinking>``, ``<reasoning>``; unclosed when the answer was cut). That
  part goes to the reasoning channel: shown as reasoning, never as the answer, never parsed for
  JSON, never sent back as history.
- **Thinking whose opening tag the template wrote.** A reasoning model served with a chat template
  that opens ``<think>`` itself (DeepSeek-R1 distills and QwQ on vLLM or Ollama) sends only the
  closing ``</think>`` (or ``</thinking>``, ``</reasoning>``): the text before it, from the start of
  the answer, was the thought and goes to the reasoning channel like a tagged one. A whole answer is
  always read so. A streamed one is read so for models known to do it (``hold_start``: named in the
  settings, or seen doing it once in this process): the start of their answer that neither opened a
  tag nor came after native reasoning is held back until a closing tag arrives, the answer ends, or
  ``UNDECIDED_CHARS`` characters have come. Any other model's answer streams at once; a lone closing
  tag in it is dropped (never shown) and the model is remembered for its next answer.
- **Tool calls written as text.** A model without native tool calling writes
  ``{"tool": "query_tasks", "arguments": {...}}`` (or ``{"name": …, "arguments": …}``, or inside
  ``<tool_call>…</tool_call>``), alone, in a fenced block, or after a sentence. When tools were
  offered, such a call becomes a real ``ToolCall`` and leaves the text; one that cannot be read (cut
  at the length limit mid-JSON) is dropped from the text and reported as ``call_problem``, so the
  caller corrects it like any malformed call and the student never sees it.

``CompletionCleaner`` works on the text as it streams: it passes text on at once and holds back
only what might still turn out to be thinking or a tool call (the first non-whitespace characters
of the answer, the start of an answer that may be a thought whose opening tag the template wrote,
and a fence, ``{`` or ``<tool_call>`` until it closes). The whole-body path feeds
the whole text at once, so both paths give the same Completion.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from smartmate.llm.contracts import ReasoningDelta, StreamChunk, TextDelta, ToolCall
from smartmate.llm.errors import MalformedOutput
from smartmate.llm.json_extract import extract_json_object

THINKING_TAGS: dict[str, str] = {"<think>": "</think>", "<thinking>": "</thinking>",
                                 "<reasoning>": "</reasoning>"}
# Where a tool call written as text may start, and what closes it ("{" closes at its matching brace).
_CLOSING_TAGS: tuple[str, ...] = tuple(THINKING_TAGS.values())
# How much of an answer's start is held back waiting for a lone closing tag before it counts as the
# answer (a thought longer than this is shown: the cost of streaming an ordinary answer at all).
UNDECIDED_CHARS = 4000
_CALL_OPENERS: dict[str, str] = {"```": "```", "<tool_call>": "</tool_call>", "{": "}"}
# The start of something that names a tool: enough to call an unfinished object a cut tool call.
_LOOKS_LIKE_CALL = re.compile(r"""[{,]\s*["'“]?(tool|name|function)["'”]?\s*[:：]""")
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "input")

_LONE_CLOSING = re.compile("|".join(re.escape(tag) for tag in _CLOSING_TAGS), re.IGNORECASE)

Emit = Callable[[StreamChunk], None]

# Models seen sending a lone closing tag (their template opens the thought), for this process; their
# streamed answers are held from the first one on (the settings can name them before: see client).
_TEMPLATE_THINKERS: set[str] = set()


def template_opens_thinking(model: str) -> bool:
    """Whether ``model`` was seen sending a lone closing thinking tag in this process."""
    return model in _TEMPLATE_THINKERS


def template_thinking_seen(model: str) -> None:
    """Remember that ``model``'s template opens the thought (its answers start inside it)."""
    if model:
        _TEMPLATE_THINKERS.add(model)


@dataclass
class CleanText:
    """What the cleaner made of the text: the answer, the reasoning and the calls it found."""

    text: str = ""
    reasoning: str = ""
    calls: list[ToolCall] = field(default_factory=list)
    call_problem: str = ""


class CompletionCleaner:
    """Split a streamed (or whole) answer into answer text, reasoning and tool calls written as text.

    ``feed`` takes answer text as it arrives, ``feed_reasoning`` the native reasoning channel;
    ``finish`` releases what was held back. Each piece that is sure goes to ``emit`` at once.
    """

    def __init__(self, *, tools_offered: bool, emit: Emit | None = None, hold_start: bool = False) -> None:
        self._tools_offered = tools_offered
        self._hold_start = hold_start  # hold an answer's untagged start until it cannot be a thought
        self.template_thinks = False  # a lone closing tag came: this model's template opens the thought
        self._emit = emit
        self._held = ""
        # lead: before the answer's first character; think: inside a tag; undecided: an answer's start
        # that a lone closing tag may still turn into a thought; text: the answer
        self._mode = "lead"
        self._close = ""
        self._thought = False  # a thinking block closed: what follows is the answer, never held
        self._text: list[str] = []
        self._reasoning: list[str] = []
        self._calls: list[ToolCall] = []
        self._call_problem = ""

    @property
    def text_so_far(self) -> str:
        """Return the answer text passed on so far (what the student has seen)."""
        return "".join(self._text)

    def feed_reasoning(self, text: str) -> None:
        """Pass on reasoning the endpoint sent in its own field (``reasoning_content``)."""
        self._say_reasoning(text)

    def feed(self, text: str) -> None:
        """Take the next piece of answer text."""
        self._held += text
        self._drain(final=False)

    def finish(self) -> CleanText:
        """Release what was held back and return the result."""
        self._drain(final=True)
        return CleanText(text="".join(self._text), reasoning="".join(self._reasoning), calls=list(self._calls),
                         call_problem=self._call_problem)

    # --- the three modes -----------------------------------------------------------------------

    def _drain(self, *, final: bool) -> None:
        while self._held:
            step = {"lead": self._lead, "think": self._think, "undecided": self._undecided,
                    "text": self._body}[self._mode]
            if not step(final):
                return

    def _lead(self, final: bool) -> bool:
        """Before the answer starts: is it a thinking tag? Returns whether to go on draining."""
        start = self._held.lstrip()
        if not start:
            if final:
                self._held = ""
            return False
        lowered = start.lower()
        for opening, closing in THINKING_TAGS.items():
            if lowered.startswith(opening):
                self._held, self._mode, self._close = start[len(opening):], "think", closing
                return True
            if opening.startswith(lowered) and not final:
                return False  # "<thi": wait for the next piece to tell
        # Nothing said yet: this may be a thought whose opening tag the template wrote.
        undecided = self._hold_start and not (self._thought or self._text or self._reasoning)
        self._held, self._mode = start, ("undecided" if undecided else "text")
        return True

    def _undecided(self, final: bool) -> bool:
        """The answer's start without an opening tag: a lone closing tag makes it the thought."""
        lowered = self._held.lower()
        found = [(at, tag) for tag in _CLOSING_TAGS if (at := lowered.find(tag)) != -1]
        if found:
            end, tag = min(found)
            self._say_reasoning(self._held[:end])
            self._held, self._mode, self._thought = self._held[end + len(tag):], "lead", True
            self.template_thinks = True
            return True
        if final or len(self._held) >= UNDECIDED_CHARS:
            self._mode = "text"
            return True
        return False

    def _think(self, final: bool) -> bool:
        end = self._held.lower().find(self._close)
        if end != -1:
            self._say_reasoning(self._held[:end])
            self._held, self._mode, self._thought = self._held[end + len(self._close):], "lead", True
            return True
        if final:  # never closed: the answer was cut while thinking, so all of it was thinking
            self._say_reasoning(self._held)
            self._held = ""
            return False
        sure = len(self._held) - _partial_suffix(self._held.lower(), (self._close,))
        self._say_reasoning(self._held[:sure])
        self._held = self._held[sure:]
        return False

    def _body(self, final: bool) -> bool:
        if not self._tools_offered:
            keep = 0 if final else _partial_suffix(self._held.lower(), _CLOSING_TAGS)  # "</thi": a tag to drop?
            self._say_text(self._held[:len(self._held) - keep])
            self._held = self._held[len(self._held) - keep:]
            return False
        start = _first_opener(self._held)
        if start is None:
            keep = 0 if final else max(_partial_suffix(self._held, tuple(_CALL_OPENERS)),
                                       _partial_suffix(self._held.lower(), _CLOSING_TAGS))
            self._say_text(self._held[:len(self._held) - keep])
            self._held = self._held[len(self._held) - keep:]
            return False
        self._say_text(self._held[:start])
        self._held = self._held[start:]
        return self._candidate(final)

    def _candidate(self, final: bool) -> bool:
        """The held text starts with an opener: wait for it to close, then take it as a call or text."""
        end = _candidate_end(self._held)
        if end is None:
            if not final:
                return False
            self._unfinished(self._held)
            self._held = ""
            return False
        block, self._held = self._held[:end], self._held[end:]
        call = text_tool_call(block, index=len(self._calls))
        if call is None:
            self._say_text(block)
        elif isinstance(call, str):
            self._call_problem = call
        else:
            self._calls.append(call)
        return True

    def _unfinished(self, block: str) -> None:
        """The text ended inside a fence or object: a cut tool call is dropped, anything else shown."""
        if _LOOKS_LIKE_CALL.search(block):
            self._call_problem = ("the tool call written as text is incomplete (it was cut off before its "
                                  "JSON closed)")
        else:
            self._say_text(block)

    # --- output --------------------------------------------------------------------------------

    def _say_text(self, text: str) -> None:
        text, lone = _LONE_CLOSING.subn("", text)
        if lone and not self._thought:
            self.template_thinks = True  # shown already; the next answer of this model is held (remember)
        if text:
            self._text.append(text)
            if self._emit is not None:
                self._emit(TextDelta(text))

    def _say_reasoning(self, text: str) -> None:
        if text:
            self._reasoning.append(text)
            if self._emit is not None:
                self._emit(ReasoningDelta(text))


def clean_text(text: str, *, reasoning: str = "", tools_offered: bool) -> CleanText:
    """Clean a whole answer at once (the non-streamed path)."""
    cleaner = CompletionCleaner(tools_offered=tools_offered, hold_start=True)  # nothing shown: no cost to hold
    cleaner.feed_reasoning(reasoning)
    cleaner.feed(text)
    return cleaner.finish()


def text_tool_call(block: str, *, index: int = 0) -> ToolCall | str | None:
    """Read ``block`` (a fence, a ``<tool_call>`` or an object) as a tool call.

    Returns the call, or a problem (str) when it names a tool but cannot be read, or None when it
    is not a tool call at all (ordinary JSON or code shown to the student).
    """
    inner = _unwrap(block)
    try:
        data = extract_json_object(inner)
    except MalformedOutput as exc:
        return f"the tool call written as text is not valid JSON ({exc.problem})" if _LOOKS_LIKE_CALL.search(
            inner) else None
    function = data.get("function")
    data = function if isinstance(function, dict) else data  # {"type": "function", "function": {...}}
    name = data.get("tool") if isinstance(data.get("tool"), str) else None
    key = next((key for key in _ARGUMENT_KEYS if key in data), None)
    if name is None and isinstance(data.get("name"), str) and (key is not None or block.startswith("<tool_call>")):
        name = data["name"]
    if not name:
        return None
    arguments = _arguments_text(data.get(key) if key else {})
    digest = hashlib.sha256(block.encode()).hexdigest()[:10]
    return ToolCall(id=f"textcall_{index}_{digest}", name=name.strip(), arguments=arguments)


def _arguments_text(value: object) -> str:
    if isinstance(value, str):
        try:  # double-encoded: the arguments object's JSON text, sent as a string
            return json.dumps(extract_json_object(value) if value.strip() else {}, ensure_ascii=False)
        except MalformedOutput:
            return value  # left for the caller's parser to name the problem
    return json.dumps({} if value is None else value, ensure_ascii=False)


def _unwrap(block: str) -> str:
    if block.startswith("```"):
        body = block[3:-3] if block.endswith("```") and len(block) >= 6 else block[3:]
        return re.sub(r"^[ \t]*[A-Za-z0-9_+-]*[ \t]*\r?\n", "", body, count=1)
    if block.startswith("<tool_call>"):
        return block[len("<tool_call>"):].removesuffix("</tool_call>")
    return block


def _first_opener(text: str) -> int | None:
    found = [index for opener in _CALL_OPENERS if (index := text.find(opener)) != -1]
    return min(found) if found else None


def _candidate_end(text: str) -> int | None:
    """Return the index just past the candidate at the start of ``text``, or None while it is open."""
    if text.startswith("{"):
        end = _matching_brace(text)
        return None if end is None else end + 1
    opener = next(opener for opener in _CALL_OPENERS if text.startswith(opener))
    close = text.find(_CALL_OPENERS[opener], len(opener))
    return None if close == -1 else close + len(_CALL_OPENERS[opener])


def _matching_brace(text: str) -> int | None:
    """Return the index of the brace closing the one at 0 (double-quoted strings skipped), or None."""
    depth, in_string, escaped = 0, False, False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{｛":
            depth += 1
        elif char in "}｝":
            depth -= 1
            if depth == 0:
                return index
    return None


def _partial_suffix(text: str, markers: tuple[str, ...]) -> int:
    """Return the length of the longest end of ``text`` that could be the start of a marker."""
    longest = 0
    for marker in markers:
        for size in range(min(len(marker) - 1, len(text)), longest, -1):
            if marker.startswith(text[-size:]):
                longest = size
                break
    return longest
