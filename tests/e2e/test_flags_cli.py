"""``agent-memory flags list|dismiss``: a person reads what agents flagged and dismisses it, as
typed in a shell, on the demo's store (real models); the history keeps both decisions.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_memory.cli.demo_runs import AGENT, DOMAIN, NEW_TASK, TASK_TYPE, TENANT
from agent_memory.sdk import MemoryClient
from tests.e2e.test_cli_options import cli

pytestmark = pytest.mark.slow


def served_runs(store: Path) -> list[str]:
    done = cli(
        store, "bootstrap", "--tenant", TENANT, "--agent", AGENT, "--task", NEW_TASK, "--json"
    )
    assert done.returncode == 0, done.stderr
    return [e["run_id"] for e in json.loads(done.stdout)["episodes"]]


def test_a_person_lists_and_dismisses_an_agents_flag_from_the_shell(tmp_path: Path) -> None:
    # Given the demo's store, and its agent flagging the first episode it is served
    store = tmp_path / "store"
    assert cli(store, "--store", str(store), "demo").returncode == 0
    first = served_runs(store)[0]
    with MemoryClient.local(store) as client:
        reply = client.bootstrap(TENANT, AGENT, NEW_TASK, task_type=TASK_TYPE, domain=DOMAIN)
        assert reply["episodes"][0]["run_id"] == first
        flagged = client.flag_memory(TENANT, AGENT, "episode", first, "The cap is 2x since 2026")
    # ... so its next bootstrap, from the shell too, lacks that episode
    assert first not in served_runs(store)
    # When a person lists the tenant's open flags, as text and as JSON
    text = cli(store, "flags", "list", "--tenant", TENANT)
    page = json.loads(cli(store, "flags", "list", "--tenant", TENANT, "--json").stdout)
    # Then the flag is there with what was flagged, by whom and why
    assert [f["flag_id"] for f in page["flags"]] == [flagged["flag_id"]]
    assert page["flags"][0]["reason"] == "The cap is 2x since 2026"
    assert f"{flagged['flag_id']}  " in text.stdout and "The cap is 2x since 2026" in text.stdout
    # When they dismiss it with a reason (the reviewer: their login name)
    dismissed = cli(
        store, "flags", "dismiss", flagged["flag_id"], "--tenant", TENANT, "--reason", "Still 0.5x"
    )
    # Then it is closed, the episode is served to the agent again, and nothing is open
    assert dismissed.returncode == 0, dismissed.stderr
    assert f"{flagged['flag_id']} dismissed" in dismissed.stdout
    assert served_runs(store)[0] == first
    assert "no open flags" in cli(store, "flags", "list", "--tenant", TENANT).stdout
    # ... and the history lists the flag and the dismissal
    history = json.loads(cli(store, "history", "--tenant", TENANT, "--json").stdout)
    actions = [(d["action"], d["record_id"]) for d in history["decisions"][:2]]
    assert actions == [("dismiss", f"{AGENT}/{first}"), ("flag", f"{AGENT}/{first}")]
    assert history["decisions"][1]["actor"] == f"agent:{AGENT}"


def test_dismissing_a_flag_that_is_not_open_fails_in_one_line(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert cli(store, "--store", str(store), "demo").returncode == 0
    done = cli(
        store,
        "flags",
        "dismiss",
        "a:fact:b",
        "--tenant",
        TENANT,
        "--reviewer",
        "x",
        "--reason",
        "y",
    )
    assert done.returncode == 3  # not found
    assert "no open flag 'a:fact:b'" in done.stderr and "Traceback" not in done.stderr
    malformed = cli(store, "flags", "dismiss", "nope", "--tenant", TENANT, "--reason", "y")
    assert malformed.returncode == 2 and "flag_id" in malformed.stderr
