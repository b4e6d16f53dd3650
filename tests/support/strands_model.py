"""A Strands model that answers from a script and records what each call was given."""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator
from typing import Any

from strands.models.model import Model
from strands.types.content import ContentBlock, ContentBlockStartToolUse, Messages
from strands.types.event_loop import StopReason
from strands.types.streaming import StreamEvent
from strands.types.tools import ToolSpec


def text(value: str) -> ContentBlock:
    """A text block."""
    return {"text": value}


def use(call_id: str, name: str, **arguments: Any) -> ContentBlock:
    """A tool-use block."""
    return {"toolUse": {"toolUseId": call_id, "name": name, "input": arguments}}


class ScriptedModel(Model):
    """Answers each call with the next reply of ``replies`` (each a list of content blocks),
    streamed as a provider streams; ``calls`` holds the messages every call was given.
    """

    def __init__(self, replies: list[list[ContentBlock]]) -> None:
        self.replies = list(replies)
        self.calls: list[Messages] = []
        self.system_prompts: list[str | None] = []

    def update_config(self, **model_config: Any) -> None:
        """Nothing to configure."""

    def get_config(self) -> dict[str, Any]:
        """No configuration."""
        return {}

    def structured_output(self, *args: Any, **kwargs: Any) -> Any:
        """Not scripted."""
        raise NotImplementedError

    async def stream(
        self,
        messages: Messages,
        tool_specs: list[ToolSpec] | None = None,
        system_prompt: str | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[StreamEvent]:
        """The next reply, as stream events."""
        self.calls.append(copy.deepcopy(messages))
        self.system_prompts.append(system_prompt)
        blocks = self.replies.pop(0)
        yield {"messageStart": {"role": "assistant"}}
        for block in blocks:
            if "toolUse" in block:
                tool_use = block["toolUse"]
                start: ContentBlockStartToolUse = {
                    "toolUseId": tool_use["toolUseId"],
                    "name": tool_use["name"],
                }
                yield {"contentBlockStart": {"start": {"toolUse": start}}}
                arguments = json.dumps(tool_use["input"])
                yield {"contentBlockDelta": {"delta": {"toolUse": {"input": arguments}}}}
            else:
                yield {"contentBlockDelta": {"delta": {"text": block.get("text", "")}}}
            yield {"contentBlockStop": {}}
        stop: StopReason = "tool_use" if any("toolUse" in b for b in blocks) else "end_turn"
        yield {"messageStop": {"stopReason": stop}}
