"""``agent-memory procedures diff`` and ``agent-memory review`` from the command line."""

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest

from agent_memory.app import Application
from agent_memory.cli.main import main
from agent_memory.core.model.models import (
    RUN_IDS_KEPT,
    SOURCE_RUN_IDS_KEPT,
    FactObservation,
    Procedure,
    ProcedureStatus,
)
from agent_memory.review.server import ReviewServer
from tests.review.scenario import Scenario
from tests.support.memory import Memory


def run(memory: Memory, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--store", str(memory.root), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_diff_compares_a_re_proposal_with_the_procedure_served(
    memory: Memory, scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(memory, capsys, "procedures", "diff", scenario.proposed_id)
    assert code == 0
    assert out.splitlines() == [
        "acme/contract_review",
        f"--- {scenario.served_id} (VALIDATED)",
        f"+++ {scenario.proposed_id} (PENDING)",
        "title: 'MSA review' -> 'Vendor MSA review'",
        "    1   1  Read clause 7.3",
        "~   2   2  Compare the cap with {+twice the+} annual fees",
        "+       3  Check the indemnity carve-outs",
        "    3   4  Escalate to legal",
        "1 added, 0 removed, 1 changed, 2 unchanged; title changed",
    ]


def test_diff_against_names_the_procedure_to_compare_with(
    memory: Memory, scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        memory, capsys, "procedures", "diff", scenario.served_id, "--against", scenario.proposed_id
    )
    assert code == 0
    assert "-   3      Check the indemnity carve-outs" in out.splitlines()


def test_diff_of_the_served_procedure_itself_says_so(
    memory: Memory, scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(memory, capsys, "procedures", "diff", scenario.served_id)
    assert out.startswith(f"{scenario.served_id} is itself the procedure served")


def test_diff_as_json_lists_each_change(
    memory: Memory, scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(memory, capsys, "procedures", "diff", scenario.proposed_id, "--json")
    reply = json.loads(out)
    assert reply["against"]["procedure_id"] == scenario.served_id
    assert reply["title_changed"] is True
    assert [c["kind"] for c in reply["changes"]] == ["same", "changed", "added", "same"]
    assert reply["changes"][1]["words"] == [
        ["same", "Compare the cap with"],
        ["added", "twice the"],
        ["same", "annual fees"],
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("proc-missing",), "error: no procedure 'proc-missing'"),
        (("PROPOSED", "--against", "proc-missing"), "no procedure 'proc-missing' of tenant acme"),
    ],
)
def test_diff_of_an_unknown_procedure_is_not_found(
    memory: Memory,
    scenario: Scenario,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    message: str,
) -> None:
    named = [scenario.proposed_id if a == "PROPOSED" else a for a in args]
    code, _, err = run(memory, capsys, "procedures", "diff", *named)
    assert code == 3  # not found
    assert message in err


def test_review_on_a_port_in_use_fails_with_one_line(
    memory: Memory, capsys: pytest.CaptureFixture[str]
) -> None:
    with ReviewServer(Application(memory.ports), port=0) as busy:
        code, _, err = run(memory, capsys, "review", "--port", str(busy.port))
    assert code == 2
    assert err.startswith(f"agent-memory: error: port: cannot listen on 127.0.0.1:{busy.port}")


def test_review_refuses_a_tenant_that_is_not_an_identifier(
    memory: Memory, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(memory, capsys, "review", "--tenant", "acme#x", "--port", "0")
    assert code == 2
    assert "tenant: not a valid identifier" in err


def test_review_serves_the_page_until_interrupted(memory: Memory, scenario: Scenario) -> None:
    # Given `agent-memory review` started on any free port (Ctrl+C handled even if the parent
    # shell ignores SIGINT, as background jobs do)
    code = (
        "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "from agent_memory.cli.main import main; sys.exit(main(sys.argv[1:]))"
    )
    args = ["--store", str(memory.root), "review", "--port", "0"]
    process = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url is not None, line
        # When the page is fetched
        with urllib.request.urlopen(url.group(0), timeout=10) as reply:
            page = reply.read().decode()
        # Then it lists the pending procedure, and Ctrl+C stops the server cleanly
        assert f'data-procedure-id="{scenario.proposed_id}"' in page
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert out == "stopped\n"


BROWSER_COMMAND = "agent-memory review --tenant acme --port 0"


def test_the_readmes_memory_browser_command_serves_one_tenants_episodes(
    memory: Memory, scenario: Scenario
) -> None:
    # Given the README's command, run as typed on this store ($AGENT_MEMORY_HOME)
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    assert f"`{BROWSER_COMMAND}`" in readme
    code = (
        "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "from agent_memory.cli.main import main; sys.exit(main(sys.argv[1:]))"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code, *shlex.split(BROWSER_COMMAND)[1:]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "AGENT_MEMORY_HOME": str(memory.root)},
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url is not None and line.startswith("reviewing tenant acme's memory at"), line
        # When its Episodes view of the reviewer is fetched
        with urllib.request.urlopen(f"{url.group(0)}episodes?agent=reviewer", timeout=10) as reply:
            page = reply.read().decode()
        # Then it lists the reviewer's runs
        assert 'data-run-id="run-002"' in page
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 0


def test_procedures_list_and_show_count_every_proposing_run(
    memory: Memory, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a procedure proposed by more distinct runs than the store names
    total = SOURCE_RUN_IDS_KEPT + 7
    common = Procedure(
        tenant_id="acme",
        task_type="contract_review",
        procedure_id="proc-common",
        title="Common approach",
        steps=("Read it", "Check it"),
        status=ProcedureStatus.PENDING,
        created_at=0.0,
        updated_at=0.0,
    )
    for number in range(total):
        memory.ports.procedures.propose(common, f"many-{number:03d}")
    # When a reviewer lists and shows it
    _, listed, _ = run(memory, capsys, "procedures", "list", "--tenant", "acme")
    _, shown, _ = run(memory, capsys, "procedures", "show", "proc-common")
    # Then both count every run, and the listing of names says how many it leaves out
    assert f"runs={total} " in listed
    assert f"proposed by {total} runs: " in shown
    [proposed] = [line for line in shown.splitlines() if line.startswith("proposed by ")]
    assert proposed.endswith(" and 7 more")
    assert shown.rstrip().endswith("decisions: none yet")


def test_contested_facts_count_every_run_that_saw_them(
    memory: Memory, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a contested fact seen by more distinct runs than its log names
    total = RUN_IDS_KEPT + 5
    sighting = FactObservation(
        tenant_id="acme",
        domain="billing",
        fact_hash="h-1",
        content="Invoices are issued on the first business day",
        confidence=0.8,
        run_id="run-0",
        seen_at=0.0,
        agent_id="agent-1",
    )
    for number in range(total):
        memory.ports.facts.observe(replace(sighting, run_id=f"run-{number:03d}"))
    assert memory.ports.facts.contest("acme", "billing", "h-1", now=0.0, reason="clash")
    # When they are listed as JSON
    code, out, _ = run(memory, capsys, "facts", "contested", "--tenant", "acme", "--json")
    # Then the fact's runs count every one of them
    assert code == 0
    assert [f["runs"] for f in json.loads(out)] == [total]
