"""The credential corpora's reading of what a scanner reports, on values written here (no line
of TruffleHog's or Gitleaks' tests)."""

from __future__ import annotations

import pytest

from benchmarks import credential_corpora
from benchmarks.credential_corpora import secret_parts


@pytest.mark.parametrize(
    ("reported", "secrets"),
    [
        # a composite: the user name or key id beside the secret is not the secret
        ("deploy:Qm9v3xT7pLw2Zr8K", ["Qm9v3xT7pLw2Zr8K"]),
        (
            "AKIA0000EXAMPLE0000:wJalrXUtnFEMIK7MDENGbPxRfiCY0000KEY",
            ["wJalrXUtnFEMIK7MDENGbPxRfiCY0000KEY"],
        ),
        # a password with an "@" in it is no address
        ("elastic:P@ssw0rd$1", ["P@ssw0rd$1"]),
        # quotes around a part are not part of it
        ("'johns:h0pk1ns~21s'", ["h0pk1ns~21s"]),
        # a URL: its password, else its secret-named parameters, else a random path segment
        ("postgres://app:s3cr3tPw@db.internal:5432/main", ["s3cr3tPw"]),
        ("jdbc:postgresql://db:5432/main?sslmode=disable&password=pw123456", ["pw123456"]),
        (
            "https://hooks.example.com/services/T0000/B0000/Xk29fLq8Zr7Yw6Vt5Us4",
            ["Xk29fLq8Zr7Yw6Vt5Us4"],
        ),
        # a URL that only says where: no secret
        ("jdbc:mysql://localhost:3306/shop", []),
        # a connection string or query string: the values of secret-named keys
        (
            "Endpoint=https://x.example.io;Id=ab12;Secret=Zm9vYmFyYmF6cXV4MTIzNDU2",
            ["Zm9vYmFyYmF6cXV4MTIzNDU2"],
        ),
        # JSON, or JSON held in a string: the values of secret-named fields
        (
            '{"type": "service_account", "private_key": "-----BEGIN KEY-----"}',
            ["-----BEGIN KEY-----"],
        ),
        ('{"c": "{\\n \\"private_key\\": \\"MIIEvQIBADAN\\"}"}', ["MIIEvQIBADAN"]),
        ("sp=r&st=2025-03-04T07:24:52Z&sig=WSdF9YeZhvrbs%2B%2B1f8Zd", ["WSdF9YeZhvrbs%2B%2B1f8Zd"]),
    ],
)
def test_the_secret_of_a_report_is_told_apart(reported: str, secrets: list[str]) -> None:
    # When the secret parts of what a scanner reports are read / Then they are the secret alone
    assert secret_parts(reported) == secrets


def test_every_occurrence_of_a_reported_secret_is_gold() -> None:
    # Given a text that repeats a secret, and its context beside it
    text = "token = 'Zr8KQm9v3xT7pLw2' | 'Zr8KQm9v3xT7pLw2' for deploy"
    # When the report "deploy:Zr8K..." is located
    golds, context, _ = credential_corpora._located(
        text, [("Zr8KQm9v3xT7pLw2", ["Zr8KQm9v3xT7pLw2"]), ("deploy", [])]
    )
    # Then both occurrences are gold and the user name is context only
    assert [text[b:e] for b, e in golds] == ["Zr8KQm9v3xT7pLw2"] * 2
    assert "deploy" in [text[b:e] for b, e in context]


@pytest.mark.parametrize(
    "text", ['"hive_id": "F1j6zMpLLcwZC3HM8"', "ORG_ID=F1j6zMpLLcwZC3HM8", "<id>{F1j6zMpLLcwZC3HM8"]
)
def test_a_value_the_text_labels_an_identifier_is_no_gold(text: str) -> None:
    # Given a reported value that the text itself labels an id
    golds, context, _ = credential_corpora._located(
        text, [("F1j6zMpLLcwZC3HM8", ["F1j6zMpLLcwZC3HM8"])]
    )
    # Then it is context, not a secret to find
    assert golds == () and len(context) == 1


def test_a_filler_is_no_gold() -> None:
    # Given a prefix and one character repeated (a test's stand-in)
    text = "token=shippo_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    value = text.split("=")[1]
    golds, _, set_aside = credential_corpora._located(text, [(value, [value])])
    # Then nothing there is a secret to find, and it is counted as set aside
    assert golds == () and set_aside == 1
