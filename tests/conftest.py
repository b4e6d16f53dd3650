import ipaddress
import os
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

from tests.support.aws_calls import AwsCallsPlugin

# No timed assertions in the suite, Hypothesis's per-example deadline included: on a shared
# 2-core machine a first example that loads a model can take longer than any fixed deadline.
settings.register_profile("agent-memory", deadline=None)
settings.load_profile("agent-memory")

# Never reach a model hub or a public-suffix list from tests: everything must be local.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")


def pytest_configure(config: pytest.Config) -> None:
    """Check every AWS call a Lambda handler makes against its role (tests/support/aws_calls)."""
    config.pluginmanager.register(AwsCallsPlugin(), "aws-calls")


@pytest.fixture(autouse=True, scope="session")
def no_network() -> Iterator[None]:
    """Refuse every connection beyond this machine: a test that needs the network is a bug
    (moto answers in-process; an AWS call it does not implement must be stubbed)."""
    original = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else None
        if host is not None:
            try:
                local = ipaddress.ip_address(host).is_loopback
            except ValueError:
                local = host == "localhost"
            if not local:
                raise ConnectionRefusedError(f"tests may not reach the network ({host})")
        return original(self, address)

    socket.socket.connect = connect  # type: ignore[method-assign]
    try:
        yield
    finally:
        socket.socket.connect = original  # type: ignore[method-assign]
