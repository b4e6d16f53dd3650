"""The version an agent's set of episodes is at, and what a cache may take in since a token.

Every episode store keeps, per agent, an :class:`EpisodeVersion`: an ``epoch`` that changes,
never to a value used before, whenever the set changes by more than an addition (a deletion,
a rewrite, a forget), and a ``position`` that grows with each addition within the epoch. A
token is the two written together. Stores differ only in how they keep them (a store-wide
counter in one transaction, a random nonce and an atomic ADD) and in how they find the
episodes added after a position; whether a cache may take those in, and which, is decided
once, here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agent_memory.core.model.models import Episode

# Between the epoch and the position; an epoch may hold it too (the position has none).
_SEPARATOR = "."


@dataclass(frozen=True, slots=True)
class EpisodeVersion:
    """Where one agent's set of episodes stands: its ``epoch`` and, within it, ``position``."""

    epoch: str
    position: int

    @property
    def token(self) -> str:
        """The version as the token ``EpisodeStore.version`` hands out."""
        return f"{self.epoch}{_SEPARATOR}{self.position}"

    @classmethod
    def parse(cls, token: str) -> EpisodeVersion | None:
        """The version a token names, or None if no store wrote it."""
        epoch, separator, position = token.rpartition(_SEPARATOR)
        if not separator or not position.isdigit() or not position.isascii():
            return None
        return cls(epoch, int(position))


@dataclass(frozen=True, slots=True)
class EpisodeChanges:
    """What an agent's episodes became since a version token, read at one moment."""

    # The token now, as ``EpisodeStore.version`` would return it at that moment.
    version: str
    # The unexpired episodes added after the old token up to ``version``, newest first; None
    # when anything but additions changed them, too many were added, or the store cannot tell.
    added: list[Episode] | None


# The episodes a store added after a position (the first argument), up to the current one:
# at least ``at_most + 1`` when more than ``at_most`` were, or None if the store cannot tell.
AddedAfter = Callable[[int, int], Sequence[Episode] | None]


def changes_since(
    current: EpisodeVersion, token: str, *, now: float, limit: int, added_after: AddedAfter
) -> EpisodeChanges:
    """What a cache holding ``token`` may take in to be at ``current``.

    Nothing when the token is current. Additions only when the token is of the current epoch
    and not ahead of it, the store can name them, and at most ``limit`` of them are unexpired
    at ``now``; otherwise ``added`` is None and the cache reads the episodes again.
    """
    if token == current.token:
        return EpisodeChanges(current.token, [])
    before = EpisodeVersion.parse(token)
    if before is None or before.epoch != current.epoch or before.position > current.position:
        return EpisodeChanges(current.token, None)
    found = added_after(before.position, limit)
    if found is None:
        return EpisodeChanges(current.token, None)
    live = [episode for episode in found if episode.expires_at > now]
    if len(live) > limit:
        return EpisodeChanges(current.token, None)
    live.sort(key=lambda episode: (episode.created_at, episode.run_id), reverse=True)
    return EpisodeChanges(current.token, live)
