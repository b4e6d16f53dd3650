"""Serving receipts: signed by bootstrap, checked before procedure feedback counts."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_memory.core.model import receipts
from agent_memory.core.model.receipts import ReceiptRefused

KEY = receipts.derive_key(b"s" * 32)
NOW = 1_790_000_000.0
LONGEST = "x" * 128  # the longest identifier the contract accepts


def issued(**overrides: object) -> str:
    fields: dict[str, object] = {
        "tenant_id": "acme",
        "agent_id": "reviewer",
        "procedure_id": "proc-1",
        "now": NOW,
    }
    return receipts.issue(KEY, **{**fields, **overrides})  # type: ignore[arg-type]


def check(token: str | None, *, key: bytes | None = KEY, **overrides: object) -> receipts.Receipt:
    fields: dict[str, object] = {
        "tenant_id": "acme",
        "agent_id": "reviewer",
        "procedure_id": "proc-1",
        "now": NOW + 60,
        "valid_for": 30 * 86_400.0,
    }
    return receipts.verify(token, key, **{**fields, **overrides})  # type: ignore[arg-type]


def refusal(token: str | None, *, key: bytes | None = KEY, **overrides: object) -> str:
    with pytest.raises(ReceiptRefused) as refused:
        check(token, key=key, **overrides)
    return refused.value.reason


def test_a_receipt_states_who_was_served_what_and_when() -> None:
    receipt = check(issued())

    assert (receipt.tenant_id, receipt.agent_id, receipt.procedure_id) == (
        "acme",
        "reviewer",
        "proc-1",
    )
    assert receipt.issued_at == NOW


def test_every_serving_gets_a_receipt_of_its_own() -> None:
    assert check(issued()).nonce != check(issued()).nonce


def test_the_longest_receipt_fits_the_event_contract() -> None:
    # Given the longest identifiers the contract accepts
    token = issued(tenant_id=LONGEST, agent_id=LONGEST, procedure_id=LONGEST, now=9.99e9)
    # Then the receipt is within the field's bound and pattern
    assert len(token) <= receipts.MAX_RECEIPT_CHARS
    assert re.fullmatch(receipts.PATTERN, token)


@pytest.mark.parametrize(
    ("overrides", "reason"),
    [
        ({"tenant_id": "globex"}, receipts.OTHER_TENANT),
        ({"agent_id": "mallory"}, receipts.OTHER_AGENT),
        ({"procedure_id": "proc-2"}, receipts.OTHER_PROCEDURE),
        ({"now": NOW + 30 * 86_400.0 + 1}, receipts.EXPIRED),
    ],
    ids=["another tenant", "another agent", "another procedure", "expired"],
)
def test_a_receipt_is_refused_for_any_other_report_than_its_own(
    overrides: dict[str, object], reason: str
) -> None:
    assert refusal(issued(), **overrides) == reason


def test_a_receipt_is_refused_under_another_key() -> None:
    assert refusal(issued(), key=receipts.derive_key(b"t" * 32)) == receipts.INVALID


def test_no_receipt_and_no_key_are_refused_saying_so() -> None:
    assert refusal(None) == receipts.NO_RECEIPT
    assert refusal(issued(), key=None) == receipts.NOT_CONFIGURED


@given(st.text(max_size=300))
def test_made_up_text_is_never_a_receipt(text: str) -> None:
    assert refusal(text) == receipts.INVALID


@given(st.data())
def test_a_receipt_changed_in_any_one_character_is_refused(data: st.DataObject) -> None:
    # Given a genuine receipt, one of its characters replaced by another of the alphabet
    token = issued()
    at = data.draw(st.integers(0, len(token) - 1), label="at")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."
    other = data.draw(st.sampled_from(alphabet).filter(lambda c: c != token[at]), label="by")
    changed = token[:at] + other + token[at + 1 :]
    # Then it is refused (base64's last character may carry unused bits: then it still reads
    # as the same bytes, and is the same receipt)
    try:
        receipt = check(changed)
    except ReceiptRefused as refused:
        assert refused.reason == receipts.INVALID
    else:
        assert receipt == check(token)


def test_the_receipt_key_is_derived_from_the_secret_never_the_secret_itself() -> None:
    # Given one deployment secret, which also keys name pseudonyms
    secret = b"s" * 32
    token = issued()  # signed with derive_key(secret)
    # Then the secret itself does not check the receipt: the two uses have different keys
    assert refusal(token, key=secret) == receipts.INVALID
    # And another secret derives another key
    assert receipts.derive_key(b"t" * 32) != KEY
