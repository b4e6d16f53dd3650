"""Shared fixtures of the AWS adapter tests."""

from __future__ import annotations

import pytest

from tests.integration.aws.moto_dynamodb import REGION


@pytest.fixture
def stub_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fake credentials and a default Region, and no profile: clients are built, never reach
    AWS (Stubber or moto answers them), and never pick up the machine's own credentials.
    """
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
