"""The store's secret key file (``pseudonym.key``): written whole, checked at every open.

Names are stored as pseudonyms keyed by it and serving receipts are signed with a key derived
from it, so a key that is empty, cut short or replaced would make memory unmatchable and
receipts forgeable. A new key is 64 hexadecimal characters and a newline (32 random bytes),
written atomically (``files.create_atomic``); a store made before that holds the 32 bytes
themselves, which are read as they are. Anything else is refused with :class:`KeyFileInvalid`
naming the file and what is wrong, never replaced: a new key would orphan every pseudonym
already stored.
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path

from agent_memory.adapters.local.files import create_atomic
from agent_memory.core.model.errors import StoreUnavailable

KEY_BYTES = 32
HEX_CHARS = 2 * KEY_BYTES
_HEX = re.compile(rb"[0-9a-fA-F]*")
_MAX_READ = 4096
_RESTORE = (
    "restore it from a backup of the store (names already stored were made with it; "
    "a new key would not match them)"
)


class KeyFileInvalid(StoreUnavailable):
    """The store's key file is unreadable, or is not a key (empty, cut short, too long, not
    hexadecimal); the message names the file and what is wrong.
    """


def read_key(path: Path) -> bytes | None:
    """The key ``path`` holds; None when there is no such file."""
    try:
        with open(path, "rb") as handle:
            # Bounded: whatever the file is (a link to a device, a log), it is read no further.
            raw = handle.read(_MAX_READ)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise KeyFileInvalid(
            f"cannot read the store's key {path}: {error.strerror or error}"
        ) from None
    return parse_key(path, raw)


def parse_key(path: Path, raw: bytes) -> bytes:
    """The key in ``raw`` (the bytes of ``path``); :class:`KeyFileInvalid` if it is none."""
    text = raw.removesuffix(b"\n").removesuffix(b"\r")
    if len(text) == HEX_CHARS and _HEX.fullmatch(text):
        return bytes.fromhex(text.decode("ascii"))
    raise KeyFileInvalid(f"the store's key {path} is damaged: {_problem(text)}; {_RESTORE}")


def create_key(path: Path) -> bytes:
    """A new random key written to ``path`` (owner-only), or the one another process wrote
    there first; :class:`KeyFileInvalid` if it cannot be written (nothing is left behind).
    """
    key = secrets.token_bytes(KEY_BYTES)
    try:
        created = create_atomic(path, key.hex().encode("ascii") + b"\n")
    except OSError as error:
        raise KeyFileInvalid(
            f"cannot write the store's new key {path}: {error.strerror or error} "
            "(nothing was written)"
        ) from None
    if created:
        return key
    found = read_key(path)
    if found is None:  # created by another process and removed since: unlikely, but not a key
        raise KeyFileInvalid(f"the store's key {path} vanished while it was being created")
    return found


def missing_key(path: Path) -> KeyFileInvalid:
    """The error for a store that holds memory but no key file."""
    return KeyFileInvalid(
        f"the store's key {path} is missing, but the store holds memory; {_RESTORE}"
    )


def _problem(text: bytes) -> str:
    expected = f"a key is {HEX_CHARS} hexadecimal characters"
    if not text:
        return f"it is empty; {expected}"
    if _HEX.fullmatch(text):
        cut = " (cut short?)" if len(text) < HEX_CHARS else ""
        return f"it holds {len(text)} hexadecimal characters{cut}; {expected}"
    if len(text) == HEX_CHARS:
        first = next(i for i, byte in enumerate(text) if _HEX.fullmatch(bytes([byte])) is None)
        return f"character {first + 1} is not a hexadecimal digit; {expected}"
    return f"its {len(text)} bytes are not a key; {expected}"
