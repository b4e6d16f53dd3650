"""``agent-memory reembed`` end to end on a temporary store, with two registered test models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_memory.adapters.local import embeddings
from agent_memory.adapters.local.embeddings import LocalModel
from agent_memory.cli.main import main
from agent_memory.core.model.calibration import Calibration
from tests.support.embedder import HashingEmbedder
from tests.support.memory import HASHING_CALIBRATION, run_event

OLD, NEW = "test-hashing-256", "test-words-64"


@pytest.fixture(autouse=True)
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two local models the CLI can name, as a release registers real ones."""
    monkeypatch.setitem(
        embeddings.LOCAL_MODELS,
        OLD,
        LocalModel(OLD, lambda: HashingEmbedder(256, OLD), HASHING_CALIBRATION),
    )
    monkeypatch.setitem(
        embeddings.LOCAL_MODELS,
        NEW,
        LocalModel(
            NEW,
            lambda: HashingEmbedder(64, NEW),
            Calibration("test-words", 0.2, 0.2, "tests: word-overlap vectors"),
        ),
    )


class Cli:
    """The command run in-process on one store, with its output captured."""

    def __init__(self, store: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.store, self.capsys = store, capsys

    def __call__(self, *args: str, code: int = 0) -> str:
        returned = main(["--store", str(self.store), *args])
        out, err = self.capsys.readouterr()
        assert returned == code, err
        return err if code else out

    def json(self, *args: str) -> Any:
        return json.loads(self(*args, "--json"))


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "store", capsys)


def bootstrap(cli: Cli) -> dict[str, Any]:
    reply: dict[str, Any] = cli.json(
        "bootstrap",
        "--tenant",
        "acme",
        "--agent",
        "reviewer",
        "--task",
        "Check the vendor MSA: are liability caps below 1x fees?",
        "--domain",
        "contracts",
    )
    reply.pop("timings_ms")
    # Each reply's block has a token of its own: compare what it says.
    token = reply.pop("context_token")
    reply.pop("context_guidance")
    reply["context"] = reply["context"].replace(token, "TOKEN")
    return reply


def consolidate_three_runs(cli: Cli, tmp_path: Path) -> None:
    """The reviewer's three runs, and a run of each of two colleagues: the CLI consolidates
    them within seconds, so their fact is confirmed by three agents (the reviewer's own runs
    count once an hour)."""
    runs = [("r1", "reviewer"), ("r2", "reviewer"), ("r3", "reviewer")]
    for run_id, agent in [*runs, ("d1", "drafter"), ("a1", "auditor")]:
        path = tmp_path / f"{run_id}.json"
        path.write_text(json.dumps(run_event(run_id, agent_id=agent)))
        cli("consolidate", str(path))
    cli("ingest")


def test_a_store_moves_to_another_embedding_model_and_back_to_one_space(
    cli: Cli, tmp_path: Path
) -> None:
    # Given a new store set to the old model, which then serves three runs
    chosen = cli.json("reembed", "--to", OLD, "--switch")
    assert (chosen["stage"], chosen["active_model_id"]) == ("switched", OLD)
    consolidate_three_runs(cli, tmp_path)
    before = bootstrap(cli)
    assert len(before["episodes"]) == 3 and before["facts"]
    # When it is re-embedded with the new model
    out = cli("reembed", "--to", NEW)
    assert "embedding (done" in out and "next: agent-memory reembed --switch" in out
    # Then the status shows every record in both spaces, and searches still use the old one
    status = cli.json("reembed", "--status", "--coverage")
    assert status["active"]["model_id"] == OLD
    assert (status["migration"]["stage"], status["target_calibrated"]) == ("embedding", True)
    assert status["coverage"]["episodes"] == {"records": 5, "active": 5, "target": 5, "skipped": 0}
    assert status["coverage"]["facts"]["target"] == 1
    assert bootstrap(cli) == before
    # When it switches, searches use the new model, the knowledge base included
    assert "searches now use the new model" in cli("reembed", "--switch")
    after = bootstrap(cli)
    assert [e["run_id"] for e in after["episodes"]] == [e["run_id"] for e in before["episodes"]]
    assert [f["source"] for f in after["facts"]] == ["knowledge_base"]
    assert after["episodes"][0]["similarity"] != before["episodes"][0]["similarity"]
    # When it finishes, only the new model's vectors are left
    finished = cli.json("reembed", "--finish")
    assert finished["stage"] == "finished"
    assert finished["counts"]["episodes"]["dropped"] == 5
    status = cli.json("reembed", "--status", "--coverage")
    assert status["migration"] is None and status["active"]["model_id"] == NEW
    assert status["coverage"]["episodes"] == {"records": 5, "active": 5, "target": 0, "skipped": 0}
    exported = [json.loads(line) for line in cli("export", "--tenant", "acme").splitlines()]
    vectored = [r["record"] for r in exported if r["kind"] in ("episode", "fact")]
    assert len(vectored) == 6
    assert all(r["embedding"]["model_id"] == NEW for r in vectored)
    assert all(r["spare_embedding"] is None for r in vectored)


def test_mistakes_are_named_and_change_nothing(cli: Cli) -> None:
    assert "is not a local embedding model" in cli("reembed", "--to", "nope", code=2)
    assert "no migration to finish" in cli("reembed", "--finish", code=4)  # a conflict
    assert "idle" in cli.json("reembed", "--resume")["stage"]
    cli("reembed", "--to", OLD, "--switch")
    assert "already the active model" in cli("reembed", "--to", OLD, code=2)
    assert cli.json("reembed", "--status")["migration"]["stage"] == "switched"
