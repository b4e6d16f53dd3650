"""The local mode through the ``agent-memory`` command, as a user runs it (real models)."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_memory.cli.demo_runs import PAST_RUNS
from agent_memory.sdk import MemoryClient
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector

pytestmark = pytest.mark.slow


def cli(
    store: Path, *args: str, stdin: str | None = None, ok: bool = True
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AGENT_MEMORY_HOME": str(store)}
    env.pop("AGENT_MEMORY_LLM", None)
    done = subprocess.run(
        [sys.executable, "-m", "agent_memory.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    if ok:
        assert done.returncode == 0, done.stderr
    return done


# The CLI consolidates each run as it comes, so the past runs stating the fact are given to
# three reviewers of the team: one agent's runs would count as independent confirmations only
# an hour apart (the demo replays its runs a day apart instead).
AGENTS = ("contract-reviewer", "reviewer-emea", "contract-reviewer", "reviewer-apac")


def write_events(tmp_path: Path) -> list[Path]:
    paths = []
    for agent, story in zip(AGENTS, PAST_RUNS, strict=True):
        event = {**story, "agent_id": agent}
        path = tmp_path / f"{event['run_id']}.json"
        # As EventBridge delivers it: the detail inside an envelope.
        path.write_text(
            json.dumps({"detail-type": "RunFinished", "source": "demo", "detail": event})
        )
        paths.append(path)
    return paths


def test_demo_tells_the_whole_story(tmp_path: Path) -> None:
    done = cli(tmp_path / "store", "--store", str(tmp_path / "demo"), "demo")
    out = done.stdout
    assert "1. Consolidating past runs" in out
    assert "PII scrubbed" in out and "jane.doe@" not in out
    assert "fact confirmed by 3 independent runs" in out
    assert "approved proc-" in out
    context = out[out.index("[MEMORY CONTEXT") :]
    for marker in (
        "[EPISODIC MEMORY",
        "[SEMANTIC MEMORY",
        "[PROCEDURAL MEMORY",
        "[END MEMORY CONTEXT ",
    ):
        assert marker in context


def test_a_user_consolidates_reviews_and_bootstraps(tmp_path: Path) -> None:
    store = tmp_path / "store"
    paths = write_events(tmp_path)
    # Given four runs consolidated from files (one from stdin) and one redelivery
    summaries: list[dict[str, Any]] = []
    for path in paths[:3]:
        summaries.append(json.loads(cli(store, "consolidate", str(path), "--json").stdout))
    summaries.append(
        json.loads(cli(store, "consolidate", "-", "--json", stdin=paths[3].read_text()).stdout)
    )
    again = json.loads(cli(store, "consolidate", str(paths[1]), "--json").stdout)
    assert [s["episode"] for s in summaries] == ["written"] * 4
    assert again["episode"] == "already present"
    assert len(summaries[3]["facts_confirmed"]) == 1
    # When the reviewer lists pending procedures and approves the one proposed
    pending = json.loads(cli(store, "procedures", "list", "--status", "PENDING", "--json").stdout)
    assert len(pending) == 1
    assert {"procedure_id", "task_type", "status", "title", "steps", "times_applied"} <= set(
        pending[0]
    )
    procedure_id = pending[0]["procedure_id"]
    cli(store, "procedures", "approve", procedure_id, "--reviewer", "legal-lead")
    cli(store, "ingest")
    # Then a new run's bootstrap carries all three tiers
    reply = json.loads(
        cli(
            store,
            "bootstrap",
            "--tenant",
            "acme-legal",
            "--agent",
            "contract-reviewer",
            "--task",
            "Review the Tailspin vendor MSA liability cap",
            "--task-type",
            "contract_review",
            "--domain",
            "contract_law",
            "--json",
        ).stdout
    )
    assert reply["episodes"] and reply["facts"][0]["source"] == "knowledge_base"
    assert reply["procedure"]["procedure_id"] == procedure_id
    assert reply["context"].startswith("[MEMORY CONTEXT")
    # And the text form is the same context block
    text = cli(
        store,
        "bootstrap",
        "--tenant",
        "acme-legal",
        "--agent",
        "contract-reviewer",
        "--task",
        "Review the Tailspin vendor MSA liability cap",
    ).stdout
    assert text.startswith("[MEMORY CONTEXT") and "[EPISODIC MEMORY" in text


def test_export_then_forget_a_tenant(tmp_path: Path) -> None:
    store = tmp_path / "store"
    for path in write_events(tmp_path):
        cli(store, "consolidate", str(path))
    lines = [
        json.loads(line)
        for line in cli(store, "export", "--tenant", "acme-legal").stdout.splitlines()
    ]
    assert {line["kind"] for line in lines} >= {"episode", "fact", "procedure", "kb_document"}
    assert "jane.doe@" not in json.dumps(lines)
    cli(store, "forget", "--tenant", "acme-legal", "--yes")
    assert cli(store, "export", "--tenant", "acme-legal").stdout == ""


def test_a_reader_that_stops_early_ends_the_export_quietly(tmp_path: Path) -> None:
    # Given a store with records to export
    store = tmp_path / "store"
    for path in write_events(tmp_path)[:2]:
        cli(store, "consolidate", str(path))
    # When the export's reader has gone before it writes (as `| head` does once satisfied)
    env = {**os.environ, "AGENT_MEMORY_HOME": str(store)}
    export = subprocess.Popen(
        [sys.executable, "-m", "agent_memory.cli", "export", "--tenant", "acme-legal"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert export.stdout is not None and export.stderr is not None
    export.stdout.close()
    errors = export.stderr.read().decode()
    # Then it stops with the broken-pipe status and no traceback
    assert export.wait(timeout=60) == 141
    assert errors == ""


def test_decay_reports_what_it_did(tmp_path: Path) -> None:
    store = tmp_path / "store"
    for path in write_events(tmp_path):
        cli(store, "consolidate", str(path))
    report = json.loads(cli(store, "decay", "--now", "2099-01-01T00:00:00Z", "--json").stdout)
    # The demo runs carry no finished_at, so they were stored "now": by 2099 all have expired.
    assert report["expired_episodes_purged"] == 4
    assert report["pending_facts_expired"] == 1
    # Run records answer redeliveries for 90 days, then go too.
    assert report["expired_ledger_records_purged"] == 4


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (("consolidate", "missing.json"), None, "cannot read missing.json"),
        (("consolidate", "-"), "{not json", "is not valid JSON"),
        (
            ("consolidate", "-"),
            '{"tenant_id": "a#b", "agent_id": "x", "run_id": "r", "task": "t"}',
            "tenant_id:",
        ),
        (("bootstrap", "--tenant", "t", "--agent", "a", "--task", " "), None, "task:"),
        (("procedures", "approve", "proc-nope", "--reviewer", "me"), None, "no procedure"),
        (("decay", "--now", "tomorrow"), None, "--now must be an ISO 8601 time"),
    ],
)
def test_user_mistakes_get_one_clear_line_and_no_traceback(
    tmp_path: Path, args: tuple[str, ...], stdin: str | None, message: str
) -> None:
    # Given a store (empty: a read of a missing store is refused before its arguments)
    MemoryClient.local(
        tmp_path / "store", embedder=HashingEmbedder(), pii=FakePiiDetector()
    ).close()
    done = cli(tmp_path / "store", *args, stdin=stdin, ok=False)
    assert done.returncode != 0
    assert done.stderr.startswith("agent-memory: error: ")
    assert message in done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_every_command_shows_hidden_characters_and_export_keeps_them_exactly(
    tmp_path: Path,
) -> None:
    # Given a run whose step holds a terminal escape and tag characters, consolidated
    tags = "".join(chr(0xE0000 + ord(c)) for c in "leak")
    step = f"Read clause 7.3\x1b[2K{tags}"
    event = {
        "tenant_id": "acme",
        "agent_id": "reviewer",
        "run_id": "hidden-1",
        "task": "Review the MSA",
        "task_type": "contract_review",
        "outcome": "COMPLETED",
        "artifacts": {"procedure": {"title": "MSA review", "steps": [step]}},
    }
    store = tmp_path / "store"
    cli(store, "consolidate", "-", stdin=json.dumps(event))
    # When the procedures are listed and shown, as text and JSON, and the tenant exported
    listed = cli(store, "procedures", "list").stdout
    [procedure_id] = [line.split()[0] for line in listed.splitlines()]
    outputs = [
        listed,
        cli(store, "procedures", "show", procedure_id).stdout,
        shown_json := cli(store, "procedures", "show", procedure_id, "--json").stdout,
        exported := cli(store, "export", "--tenant", "acme").stdout,
    ]
    # Then no output holds a character that does not show, and the text names each one
    assert not any(0xE0000 <= ord(c) <= 0xE007F or c == "\x1b" for out in outputs for c in out)
    assert "  1. Read clause 7.3⟨U+001B⟩[2K⟨U+E006C⟩⟨U+E0065⟩" in outputs[1]
    # And the JSON reads back as exactly what was stored
    assert json.loads(shown_json)["steps"] == [step]
    records = [json.loads(line) for line in exported.splitlines()]
    [record] = [r for r in records if r["kind"] == "procedure"]
    assert record["record"]["steps"] == [step]
