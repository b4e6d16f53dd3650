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


# Greek and Cyrillic letters that look Latin, and brackets that look square.
_CONFUSABLES = str.maketrans(
    {
        **dict(zip("АВЕКМНОРСТХУІЈЅ", "ABEKMHOPCTXYIJS", strict=True)),
        **dict(zip("аеорсухіјѕԁԛԝ", "aeopcyxijsdqw", strict=True)),
        **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),
        **dict(zip("οαειкмнт", "oaeikmht", strict=True)),
        **dict.fromkeys("【〔⟦⦋⁅", "["),
        **dict.fromkeys("】〕⟧⦌⁆", "]"),
    }
)


def _skeleton(text: str) -> str:
    """``text`` as it reads: compatibility forms folded, look-alikes mapped to Latin, and
    invisible format characters (zero-width spaces, soft hyphens) dropped.
    """
    folded = unicodedata.normalize("NFKC", text).translate(_CONFUSABLES)
    return "".join(c for c in folded if unicodedata.category(c) != "Cf")


def neutralize(text: str) -> str:
    """Text with anything that looks like a memory marker defanged.

    The text is read as a person would (look-alike letters and brackets folded, invisible
    characters dropped); if a marker shows, the brackets of every forged marker become
    parentheses, so the words survive but cannot open or close a section. Applied when memory
    is written and again when it is read.
    """
    skeleton = _skeleton(text)
    if not _FORGED.search(skeleton):
        return text
    return _FORGED.sub(lambda match: match.group(0).translate(_BRACKETS), skeleton)
