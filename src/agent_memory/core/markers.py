"""The memory-context markers, and the neutralising that stops stored text forging them."""

from __future__ import annotations

import re
import unicodedata

CONTEXT_START = "[MEMORY CONTEXT - retrieved from prior runs and domain knowledge]"
EPISODIC = "[EPISODIC MEMORY: relevant past runs]"
SEMANTIC = "[SEMANTIC MEMORY: domain knowledge]"
CONTEXT_END = "[END MEMORY CONTEXT]"
WORKING_SUMMARY = "[WORKING MEMORY SUMMARY - earlier in this run]"


def procedural(task_type: str) -> str:
    """The marker opening the procedural section for ``task_type``."""
    return f"[PROCEDURAL MEMORY: recommended approach for {task_type}]"


_BRACKETS = str.maketrans({"[": "(", "]": ")"})
# A bracket, then any marker's leading words, however spaced or cased.
_FORGED = re.compile(
    r"\[\s*(?:(?:END\s+)?MEMORY\s+CONTEXT|(?:EPISODIC|SEMANTIC|PROCEDURAL|WORKING)\s+MEMORY)"
    r"[^\]\n]*\]?",
    re.IGNORECASE,
)


def neutralize(text: str) -> str:
    """Text with anything that looks like a memory marker defanged.

    Look-alike characters (full-width brackets, compatibility letters) are folded first, and the
    brackets of a forged marker become parentheses, so the words survive but cannot open or close
    a section. Applied when memory is written and again when it is read.
    """
    folded = unicodedata.normalize("NFKC", text)
    if not _FORGED.search(folded):
        return text
    return _FORGED.sub(lambda match: match.group(0).translate(_BRACKETS), folded)
