"""The countries a deployment declares for its PII detector: one parser, both modes' settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.regions import parse_regions
from agent_memory.wiring.aws_settings import AwsSettings
from agent_memory.wiring.local import local_ports
from agent_memory.wiring.local_settings import LocalSettings

REQUIRED = {
    name: "x"
    for name in (
        "EPISODES_TABLE FACTS_TABLE PROCEDURES_TABLE LEDGER_TABLE KB_BUCKET "
        "KNOWLEDGE_BASE_ID KB_DATA_SOURCE_ID"
    ).split()
}
CODES = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=2)


@given(codes=st.lists(CODES, max_size=6), lower=st.booleans(), spaces=st.booleans())
def test_codes_are_read_in_order_once_each_whatever_the_case_and_spacing(
    codes: list[str], lower: bool, spaces: bool
) -> None:
    # Given country codes written in either case, with or without spaces after the commas
    written = (", " if spaces else ",").join(c.lower() if lower else c for c in codes)
    # When parsed
    parsed = parse_regions(written, field="PII_REGIONS")
    # Then they are the codes, upper case, in their first order, each once
    assert parsed == tuple(dict.fromkeys(codes))


@pytest.mark.parametrize("written", ["Germany", "DE;BR", "D", "DEU", "DE,1A"])
def test_anything_but_two_letter_codes_is_refused_naming_the_setting(written: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        parse_regions(written, field="AGENT_MEMORY_PII_REGIONS")
    assert raised.value.field == "AGENT_MEMORY_PII_REGIONS"


def test_both_modes_read_their_variable(tmp_path: Path) -> None:
    # Given each mode's environment declaring Germany and Brazil
    local = LocalSettings.from_environment(tmp_path, {"AGENT_MEMORY_PII_REGIONS": "de,BR"})
    aws = AwsSettings.from_environment({**REQUIRED, "PII_REGIONS": "DE, br"})
    # Then both settings hold the same regions; none when the variable is unset
    assert local.pii_regions == aws.pii_regions == ("DE", "BR")
    assert LocalSettings.from_environment(tmp_path, {}).pii_regions == ()
    assert AwsSettings.from_environment(REQUIRED).pii_regions == ()


def test_a_code_no_country_has_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    # Given a well-formed code that names no country, in each mode's settings
    settings = LocalSettings.from_environment(
        tmp_path / "store", {"AGENT_MEMORY_PII_REGIONS": "DE,XX"}
    )
    # When the local store is opened, or the Lambda settings read
    with pytest.raises(InvalidInput) as local:
        local_ports(settings)
    with pytest.raises(InvalidInput) as aws:
        AwsSettings.from_environment({**REQUIRED, "PII_REGIONS": "ZZ"})
    # Then each names its setting and the code, and no store was made
    assert local.value.field == "AGENT_MEMORY_PII_REGIONS" and "XX" in str(local.value)
    assert aws.value.field == "PII_REGIONS"
    assert not (tmp_path / "store").exists()
