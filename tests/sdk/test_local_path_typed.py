"""The SDK's local mode validates a finished run once and hands the core its domain record."""

from pathlib import Path

import pytest

from agent_memory.core.api.contracts import RunFinishedEvent
from tests.sdk.conftest import make_local, run_event
from tests.support.typed_path import count_validations, forbid_codecs


def test_a_finished_run_is_validated_once_and_never_decoded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a local client, every run-state decoder refused, and validation counted
    memory = make_local(tmp_path / "store")
    called = forbid_codecs(monkeypatch)
    validations = count_validations(monkeypatch)
    try:
        # When a run is finished and its consolidation awaited
        result = memory.client.finish_run(run_event("run-1")).wait(timeout=60)
    finally:
        memory.client.close()
    # Then it was consolidated, from the one validation the client made
    assert result["status"] == "CONSOLIDATED"
    assert validations == [RunFinishedEvent]
    assert called == []
