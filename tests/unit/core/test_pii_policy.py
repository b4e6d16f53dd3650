"""Which URLs both modes scrub (core.pii_policy): a user before the host, or an address."""

from __future__ import annotations

import pytest

from agent_memory.core.privacy.pii_policy import url_is_personal


@pytest.mark.parametrize(
    "url",
    [
        "https://jdoe:s3cret@git.example.com/repo.git",
        "ftp://mgarcia@files.example.org/in",
        "postgres://app:pw@db:5432/main",
        "//jdoe@host/x",
        "https://lists.example.com/off?m=ana.lima@example.com",
    ],
)
def test_a_url_naming_a_user_or_holding_an_address_is_personal(url: str) -> None:
    assert url_is_personal(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://docs.aws.amazon.com/comprehend/latest/dg/how-pii.html",
        "https://github.com/aws/aws-cdk/tree/main/packages/@aws-cdk/core",
        "https://developer.mozilla.org/en-US/docs/Web/CSS/@media",
        "https://example.com/search?q=a%40b",
    ],
)
def test_any_other_url_is_kept(url: str) -> None:
    assert not url_is_personal(url)
