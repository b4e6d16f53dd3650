"""The pattern every identifier (tenant, agent, run) matches, in a module of its own: a caller
that checks one (the CLI) need not import the event contracts and pydantic with it.
"""

import re

from agent_memory.core.model.errors import InvalidInput

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"


def checked_id(value: str, field: str, kind: str) -> str:
    """``value`` if it is an identifier; else ``InvalidInput`` naming ``field``."""
    if not re.fullmatch(ID_PATTERN, value):
        raise InvalidInput(field, f"{value!r} is not a {kind}")
    return value
