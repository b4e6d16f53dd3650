"""``agent-memory bootstrap --scope team --team ...`` and ``--scope tenant`` on a temporary
store, in process, with a registered test embedding model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_memory.adapters.local import embeddings
from agent_memory.adapters.local.embeddings import LocalModel
from agent_memory.cli.main import main
from tests.support.embedder import HashingEmbedder
from tests.support.memory import HASHING_CALIBRATION, run_event

MODEL = "test-hashing-256"


@pytest.fixture(autouse=True)
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(
        embeddings.LOCAL_MODELS,
        MODEL,
        LocalModel(MODEL, lambda: HashingEmbedder(256, MODEL), HASHING_CALIBRATION),
    )


class Cli:
    def __init__(self, store: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.store, self.capsys = store, capsys

    def __call__(self, *args: str, code: int = 0) -> str:
        returned = main(["--store", str(self.store), *args])
        out, err = self.capsys.readouterr()
        assert returned == code, err
        return err if code else out


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    cli = Cli(tmp_path / "store", capsys)
    cli("reembed", "--to", MODEL, "--switch")
    # Given runs of the reviewer, its team mate, an outsider, and globex's agent
    for run_id, tenant, agent, finding in [
        ("own-1", "acme", "reviewer", "Clause 7.3 caps liability at 0.5x fees"),
        ("mate-1", "acme", "security-reviewer", "The liability cap excludes data breaches"),
        ("out-1", "acme", "outsider", "The liability cap was renegotiated in 2024"),
        ("globex-1", "globex", "security-reviewer", "Globex caps liability at 2x fees"),
    ]:
        event = run_event(run_id, tenant_id=tenant, agent_id=agent)
        event["artifacts"] = {
            "task_summary": f"Reviewed the MSA ({agent})",
            "key_findings": [finding],
        }
        path = tmp_path / f"{run_id}.json"
        path.write_text(json.dumps(event))
        cli("consolidate", str(path))
    return cli


def bootstrap(cli: Cli, *scope: str, tenant: str = "acme") -> dict[str, Any]:
    args = ("--tenant", tenant, "--agent", "reviewer", "--task", "Review the MSA liability cap")
    reply: dict[str, Any] = json.loads(cli("bootstrap", *args, *scope, "--json"))
    return reply


def runs(reply: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((e["agent_id"], e["run_id"]) for e in reply["episodes"])


def test_bootstrap_reads_the_team_named_on_the_command_line(cli: Cli) -> None:
    # When the reviewer bootstraps with its team mate named
    reply = bootstrap(cli, "--scope", "team", "--team", "security-reviewer")
    # Then the mate's run comes back with its author, and the context says who learned it
    assert runs(reply) == [("reviewer", "own-1"), ("security-reviewer", "mate-1")]
    assert "Learned by: security-reviewer" in reply["context"]


def test_bootstrap_reads_the_tenant_and_never_another(cli: Cli) -> None:
    # When the reviewer bootstraps with the tenant scope
    reply = bootstrap(cli, "--scope", "tenant")
    # Then every acme agent's run comes back, and none of globex's
    assert runs(reply) == [
        ("outsider", "out-1"),
        ("reviewer", "own-1"),
        ("security-reviewer", "mate-1"),
    ]
    assert "Globex" not in reply["context"]


def test_bootstrap_without_a_scope_reads_the_agents_own_runs(cli: Cli) -> None:
    reply = bootstrap(cli)
    assert runs(reply) == [("reviewer", "own-1")]
    assert "Learned by" not in reply["context"]


def test_a_team_scope_without_a_team_names_the_field(cli: Cli) -> None:
    # When the team scope is asked for without a team
    args = ("--tenant", "acme", "--agent", "reviewer", "--task", "Review the MSA")
    err = cli("bootstrap", *args, "--scope", "team", code=2)
    # Then the error names the missing field
    assert "team" in err
