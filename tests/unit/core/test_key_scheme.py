"""The tenant key scheme (core/model/keys.py): no key of one tenant is, or starts like, a key
of another, for any identifiers the contract admits.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_memory.core.model import keys
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.identifiers import ID_PATTERN

ROOT = Path(__file__).parents[3]
ids = st.from_regex(ID_PATTERN, fullmatch=True)


@given(ids, ids, ids, ids)
def test_keys_of_two_tenants_never_share_a_prefix(a: str, b: str, part_a: str, part_b: str) -> None:
    # Given two different tenants and any parts
    if a == b:
        return
    key_a, key_b = keys.partition_key(a, part_a), keys.partition_key(b, part_b)
    # Then each key names its own tenant and starts with its tenant's prefix only
    assert keys.tenant_of(key_a) == a and keys.tenant_of(key_b) == b
    assert key_a.startswith(keys.tenant_prefix(a))
    assert not key_a.startswith(keys.tenant_prefix(b))
    assert not keys.document_key(a, "d", "k").startswith(keys.tenant_folder(b))


@given(ids, ids)
def test_a_run_marker_names_its_run_and_fits_a_run_id(agent: str, run: str) -> None:
    marker = keys.run_marker(agent, run)
    assert re.fullmatch(ID_PATTERN, marker.replace("/", "-").replace("~", "-"))
    assert keys.parse_run_marker(marker) in ((agent, run), (None, marker))


@pytest.mark.parametrize("tenant", ["a#b", "#", "acme#"])
def test_a_part_holding_the_separator_is_refused(tenant: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        keys.partition_key(tenant, "agent")
    assert refused.value.field == "tenant_id"


def _literal_key_formats(path: Path) -> list[str]:
    """f-strings that open the bucket's tenants folder, or put the separator after a tenant."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.JoinedStr):
            continue
        first, rest = node.values[0], node.values[1:]
        after_tenant = (
            isinstance(first, ast.FormattedValue)
            and "tenant" in ast.unparse(first.value)
            and bool(rest)
            and isinstance(rest[0], ast.Constant)
            and str(rest[0].value).startswith("#")
        )
        folder = isinstance(first, ast.Constant) and str(first.value).startswith("tenants/")
        if after_tenant or folder:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_module_builds_tenant_keys_by_hand() -> None:
    # Given every module of the package and the stacks
    files = sorted((ROOT / "src/agent_memory").rglob("*.py")) + sorted(
        (ROOT / "stacks").glob("*.py")
    )
    # Then none but the key scheme writes a "tenants/" folder or a "{x}#..." key itself
    hand_built = [
        hit for path in files if path.name != "keys.py" for hit in _literal_key_formats(path)
    ]
    assert hand_built == []
