from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_memory.app import Application
from agent_memory.review.server import ReviewServer
from tests.review.browsing import Browsed
from tests.review.browsing import seed as seed_browsing
from tests.review.client import Client
from tests.review.scenario import Scenario, seed
from tests.support.memory import Memory, make_memory


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path / "store")


@pytest.fixture
def scenario(memory: Memory) -> Scenario:
    return seed(memory)


@pytest.fixture
def server(memory: Memory) -> Iterator[ReviewServer]:
    with ReviewServer(Application(memory.ports), port=0).start() as running:
        yield running


@pytest.fixture
def client(server: ReviewServer) -> Client:
    return Client(server.port, server.app.csrf_token)


@pytest.fixture
def browsed(memory: Memory) -> Browsed:
    return seed_browsing(memory)


@pytest.fixture
def acme(memory: Memory, browsed: Browsed) -> Iterator[Client]:
    """The browser of tenant acme's memory (as ``agent-memory review --tenant acme``)."""
    with ReviewServer(Application(memory.ports), port=0, tenant_id="acme").start() as running:
        yield Client(running.port, running.app.csrf_token)
