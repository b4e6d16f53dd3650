"""Country codes a deployment declares: where its tenants' phone numbers and addresses are from."""

from __future__ import annotations

import re

from agent_memory.core.model.errors import InvalidInput

__all__ = ["parse_regions"]

_CODE = re.compile(r"[A-Z]{2}")


def parse_regions(value: str | None, *, field: str) -> tuple[str, ...]:
    """``"DE, br"`` as ``("DE", "BR")``: ISO 3166-1 alpha-2 codes, comma-separated, in order,
    each once. Empty or None: none declared. Anything else raises ``InvalidInput`` naming
    ``field``.
    """
    codes: list[str] = []
    for part in (value or "").split(","):
        code = part.strip().upper()
        if not code:
            continue
        if _CODE.fullmatch(code) is None:
            raise InvalidInput(
                field, f"must be ISO 3166 country codes separated by commas (DE,BR), not {part!r}"
            )
        if code not in codes:
            codes.append(code)
    return tuple(codes)
