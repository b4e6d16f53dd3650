"""Step-by-step differences between two procedures, for a reviewer judging a re-proposal."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Literal

from agent_memory.core.model.models import Procedure

ChangeKind = Literal["same", "added", "removed", "changed"]
WordOp = Literal["same", "removed", "added"]

# Below this similarity a replaced step reads as one step removed and another added, not as an
# edit of it: pairing unrelated steps would make the word diff noise.
_EDIT_SIMILARITY = 0.5


@dataclass(frozen=True, slots=True)
class WordPiece:
    """A run of words of a changed step: kept, removed or added."""

    op: WordOp
    text: str


@dataclass(frozen=True, slots=True)
class StepChange:
    """One line of the diff: a step kept, added, removed or edited, with its numbers."""

    kind: ChangeKind
    old_number: int | None
    new_number: int | None
    old: str | None
    new: str | None
    words: tuple[WordPiece, ...] = ()


@dataclass(frozen=True, slots=True)
class ProcedureDiff:
    """How ``new`` differs from ``old`` (None: nothing to compare with, every step is added)."""

    old: Procedure | None
    new: Procedure
    changes: tuple[StepChange, ...]

    @property
    def title_changed(self) -> bool:
        """Whether the title differs from the old procedure's."""
        return self.old is not None and self.old.title != self.new.title

    @property
    def identical(self) -> bool:
        """Same title and the same steps in the same order."""
        return (
            self.old is not None
            and not self.title_changed
            and self.count("same") == len(self.changes)
        )

    def count(self, kind: ChangeKind) -> int:
        """How many steps were of this kind of change."""
        return sum(1 for change in self.changes if change.kind == kind)

    def summary(self) -> str:
        """One line: the counts of each kind of change."""
        if self.old is None:
            return f"{len(self.changes)} step(s), nothing to compare with"
        parts = [
            f"{self.count('added')} added",
            f"{self.count('removed')} removed",
            f"{self.count('changed')} changed",
            f"{self.count('same')} unchanged",
        ]
        title = "; title changed" if self.title_changed else ""
        return ", ".join(parts) + title


def diff_procedures(old: Procedure | None, new: Procedure) -> ProcedureDiff:
    """The steps of ``new`` against those of ``old``, aligned with :mod:`difflib`.

    A replaced block pairs its steps in order as edits (with a word diff) while they resemble
    each other; the rest of the block is reported as removed and added steps.
    """
    old_steps = old.steps if old is not None else ()
    matcher = difflib.SequenceMatcher(None, old_steps, new.steps, autojunk=False)
    changes: list[StepChange] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            changes.extend(
                StepChange("same", i + 1, j + 1, old_steps[i], new.steps[j])
                for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
            )
        else:
            changes.extend(_replaced(old_steps, new.steps, i1, i2, j1, j2))
    return ProcedureDiff(old, new, tuple(changes))


def _replaced(
    old: tuple[str, ...], new: tuple[str, ...], i1: int, i2: int, j1: int, j2: int
) -> list[StepChange]:
    # Pair each removed step with the next added one that resembles it, keeping both orders;
    # between pairs, removed steps come before added ones, as in a unified diff.
    pairs: list[tuple[int, int]] = []
    start = j1
    for i in range(i1, i2):
        match = next((j for j in range(start, j2) if _similar(old[i], new[j])), None)
        if match is not None:
            pairs.append((i, match))
            start = match + 1
    changes: list[StepChange] = []
    next_i, next_j = i1, j1
    for i, j in [*pairs, (i2, j2)]:
        changes.extend(StepChange("removed", r + 1, None, old[r], None) for r in range(next_i, i))
        changes.extend(StepChange("added", None, a + 1, None, new[a]) for a in range(next_j, j))
        if i < i2:
            changes.append(
                StepChange("changed", i + 1, j + 1, old[i], new[j], word_diff(old[i], new[j]))
            )
        next_i, next_j = i + 1, j + 1
    return changes


def _similar(a: str, b: str) -> bool:
    return difflib.SequenceMatcher(None, a.casefold(), b.casefold()).ratio() >= _EDIT_SIMILARITY


def word_diff(old: str, new: str) -> tuple[WordPiece, ...]:
    """``old`` turned into ``new`` as runs of kept, removed and added words."""
    a, b = old.split(), new.split()
    pieces: list[WordPiece] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            pieces.append(WordPiece("same", " ".join(a[i1:i2])))
            continue
        if i2 > i1:
            pieces.append(WordPiece("removed", " ".join(a[i1:i2])))
        if j2 > j1:
            pieces.append(WordPiece("added", " ".join(b[j1:j2])))
    return tuple(pieces)


def format_diff(diff: ProcedureDiff) -> str:
    """The diff as text: a header, the title change, one line per step, then the counts.

    Lines start with ``' '`` (kept), ``-`` (removed), ``+`` (added) or ``~`` (edited, words
    marked ``[-removed-]{+added+}`` as ``git diff --word-diff`` does), then the old and new
    step numbers.
    """
    new = diff.new
    old = diff.old
    lines = [f"{new.tenant_id}/{new.task_type}"]
    if old is None:
        lines.extend(["--- (no validated procedure)", f"+++ {_label(new)}"])
    else:
        lines.extend([f"--- {_label(old)}", f"+++ {_label(new)}"])
        if diff.title_changed:
            lines.append(f"title: {old.title!r} -> {new.title!r}")
        else:
            lines.append(f"title: {new.title!r} (unchanged)")
    for change in diff.changes:
        numbers = f"{_number(change.old_number)} {_number(change.new_number)}"
        marker = {"same": " ", "added": "+", "removed": "-", "changed": "~"}[change.kind]
        lines.append(f"{marker} {numbers}  {_step_text(change)}")
    lines.append(diff.summary() if not diff.identical else "identical steps and title")
    return "\n".join(lines)


def _label(procedure: Procedure) -> str:
    return f"{procedure.procedure_id} ({procedure.status.value})"


def _number(number: int | None) -> str:
    return f"{number:>3}" if number is not None else "   "


def _step_text(change: StepChange) -> str:
    if change.kind != "changed":
        return change.new if change.new is not None else change.old or ""
    marks = {"same": "{}", "removed": "[-{}-]", "added": "{{+{}+}}"}
    return " ".join(marks[piece.op].format(piece.text) for piece in change.words)
