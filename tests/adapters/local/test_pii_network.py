"""Network identifiers in the local PII detector: MAC addresses, URLs that name a user (with or
without a password) and user names after a label."""

from __future__ import annotations

import pytest

from agent_memory.adapters.local.pii import LocalPiiDetector
from tests.adapters.local._pii_helpers import found


@pytest.fixture(scope="module")
def detector() -> LocalPiiDetector:
    return LocalPiiDetector()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Laptop MAC 00:1A:2B:3C:4D:5E joined.", ("MAC_ADDRESS", "00:1A:2B:3C:4D:5E")),
        ("hwaddr 3c-22-fb-8e-11-a0", ("MAC_ADDRESS", "3c-22-fb-8e-11-a0")),
        ("switch port 001a.2b3c.4d5e", ("MAC_ADDRESS", "001a.2b3c.4d5e")),
        (
            "Clone https://jdoe:s3cret@git.example.com/team/repo.git, then build.",
            ("URL", "https://jdoe:s3cret@git.example.com/team/repo.git"),
        ),
        ("ftp://mgarcia@files.example.org/in", ("URL", "ftp://mgarcia@files.example.org/in")),
        (
            "see https://example.com/unsubscribe?email=jo@example.com.",
            ("EMAIL", "jo@example.com"),
        ),
        (
            "[![badge](https://ci.example.com/x.svg)](https://jdoe:pw@ci.example.com/build/7)",
            ("URL", "https://jdoe:pw@ci.example.com/build/7"),
        ),
        ("username: jdoe42", ("USERNAME", "jdoe42")),
        ('{"login": "mgarcia"}', ("USERNAME", "mgarcia")),
        ("Her user name is k.watanabe_7.", ("USERNAME", "k.watanabe_7")),
        ("screen name = @dana_r", ("USERNAME", "@dana_r")),
    ],
)
def test_network_identifiers_are_found_with_comprehend_labels(
    detector: LocalPiiDetector, text: str, expected: tuple[str, str]
) -> None:
    # Given a sentence with one network identifier; When it is scanned; Then it is reported
    assert expected in found(detector, text)


@pytest.mark.parametrize(
    "text",
    [
        # A hex hash or digest is not a MAC address, nor is a time or an IPv6 address
        "sha a3f5c8d9e2b1c4d7 and 00112233445566778899",
        "at 12:30:45 the job ran",
        "fe80::1ff:fe23:4567:890a",
        # A plain URL is memory worth keeping (core.pii_policy)
        "The docs at https://docs.aws.amazon.com/comprehend/latest/dg/how-pii.html say so.",
        "See https://github.com/aws/aws-cdk/tree/main/packages/@aws-cdk/core and @media rules.",
        # Code and prose around the label words
        "def login(username: str, user_id: Optional[int] = None) -> None:",
        "username = request.form['username']",
        "The login is broken again; the username field is required.",
        "self.username = username",
    ],
)
def test_lookalikes_are_left_alone(detector: LocalPiiDetector, text: str) -> None:
    kinds = {"MAC_ADDRESS", "URL", "USERNAME"}
    assert [f for f in found(detector, text) if f[0] in kinds] == []
