"""Forgetting one run, or one agent's runs, everywhere it counted (``ForgetRuns``): its episode,
its sightings of facts (a fact no longer confirmed stops being served), its proposals and
feedback on procedures, its ledger records; through the SDK's local mode and the CLI, with a
search of every byte of the store afterwards.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.sdk import InvalidInputError
from tests.e2e.test_cli_options import cli
from tests.sdk.conftest import LocalMemory, make_local
from tests.support.memory import run_event

FACT = "Liability caps below 1x fees are a red flag"
HASH = fact_hash(FACT)
# In the auditor's run only: what must leave every byte of the store with it.
SECRET = "Zanzibar-77 side letter"


def three_agents_confirm(local: LocalMemory) -> None:
    """The fact confirmed by three agents' runs; the auditor's run alone names the secret."""
    for agent in ("reviewer", "drafter", "auditor"):
        task = f"Audit the {SECRET} liability cap" if agent == "auditor" else None
        event = run_event(f"run-{agent}", agent_id=agent)
        if task:
            event["task"] = task
        local.client.finish_run(event).wait(timeout=30)


def stored_bytes(store: Path) -> bytes:
    """Every byte of every file of the store (the database, its WAL, the KB's files)."""
    return b"".join(p.read_bytes() for p in sorted(store.rglob("*")) if p.is_file())


def served_facts(local: LocalMemory, agent: str = "reviewer") -> list[str]:
    reply = local.client.bootstrap("acme", agent, "liability cap", domain="contracts")
    return [f["content"] for f in reply["facts"]]


def test_forgetting_a_run_takes_back_what_it_confirmed(local: LocalMemory) -> None:
    # Given a fact three agents' runs confirmed, served, and a run that named a secret
    three_agents_confirm(local)
    assert served_facts(local) == [FACT]
    assert SECRET.encode() in stored_bytes(local.store)

    # When a person forgets the auditor's run
    receipt = local.client.forget_runs(
        "acme", "auditor", "run-auditor", reviewer="dpo", reason="poisoned run"
    )

    # Then the receipt names what it took back in each store
    assert receipt.runs == ("auditor/run-auditor",)
    assert (receipt.episodes, receipt.sightings, receipt.proposals) == (1, 1, 1)
    assert receipt.facts_withdrawn == (f"contracts/{HASH}",)
    assert receipt.ledger_records >= 1 and receipt.decision_id is not None
    # And the fact, now two confirmations of three, is served no more
    assert served_facts(local) == []
    fact = local.client.get_fact("acme", "contracts", HASH)
    assert fact is not None and (fact["status"], fact["confirmations"]) == ("PENDING", 2)
    # And the run's episode is gone, its secret from every byte of the store
    assert local.client.get_episode("acme", "auditor", "run-auditor") is None
    assert SECRET.encode() not in stored_bytes(local.store)
    # And the procedure counts the two other runs
    [procedure] = local.client.list_procedures("acme")
    assert procedure["proposals"] == 2
    # And the history names the decision, not the content
    [decision] = local.client.history("acme")["decisions"]
    assert (decision["action"], decision["kind"], decision["record_id"]) == (
        "forget",
        "run",
        "auditor/run-auditor",
    )
    assert (decision["actor"], decision["reason"]) == ("dpo", "poisoned run")


def test_forgetting_twice_finds_nothing_the_second_time(local: LocalMemory) -> None:
    three_agents_confirm(local)
    local.client.forget_runs("acme", "auditor", "run-auditor", reviewer="dpo")

    again = local.client.forget_runs("acme", "auditor", "run-auditor", reviewer="dpo")

    assert not again.found and again.decision_id is None
    assert again.as_json()["runs"] == []
    assert len(local.client.history("acme")["decisions"]) == 1


def test_a_confirmed_fact_another_run_still_confirms_is_served_on(local: LocalMemory) -> None:
    # Given a fourth agent's run confirming the fact too
    three_agents_confirm(local)
    local.client.finish_run(run_event("run-counsel", agent_id="counsel")).wait(timeout=30)

    receipt = local.client.forget_runs("acme", "auditor", "run-auditor", reviewer="dpo")

    assert receipt.facts_withdrawn == ()
    assert served_facts(local) == [FACT]


def test_forgetting_an_agent_forgets_each_of_its_runs(local: LocalMemory) -> None:
    # Given two runs of the auditor, and the fact confirmed by three agents
    three_agents_confirm(local)
    local.client.finish_run(run_event("run-2", agent_id="auditor")).wait(timeout=30)

    receipt = local.client.forget_runs("acme", "auditor", reviewer="dpo", reason="left")

    assert receipt.runs == ("auditor/run-2", "auditor/run-auditor")
    assert receipt.episodes == 2 and receipt.sightings == 2
    assert local.client.list_episodes("acme", "auditor")["episodes"] == []
    assert local.client.list_agents("acme") == ["drafter", "reviewer"]
    assert served_facts(local) == []
    [decision] = local.client.history("acme")["decisions"]
    assert (decision["kind"], decision["record_id"]) == ("agent", "auditor")


def test_a_proposal_only_the_run_made_is_deleted_a_decided_one_is_kept(
    local: LocalMemory,
) -> None:
    # Given one run's proposal waiting for review, and another's a person approved
    steps = {"title": "NDA review", "steps": ["Read the term", "Check the carve-outs"]}
    waiting = run_event("run-nda", task_type="nda_review")
    waiting["artifacts"] = {**waiting["artifacts"], "procedure": steps}
    local.client.finish_run(waiting).wait(timeout=30)
    local.client.finish_run(run_event("run-msa")).wait(timeout=30)
    pending = {p["task_type"]: p["procedure_id"] for p in local.client.list_procedures("acme")}
    local.client.approve_procedure("acme", pending["contract_review"], reviewer="lead")

    # When both runs are forgotten
    nda = local.client.forget_runs("acme", "reviewer", "run-nda", reviewer="dpo")
    msa = local.client.forget_runs("acme", "reviewer", "run-msa", reviewer="dpo")

    # Then the waiting proposal is gone, the approved procedure stays approved
    assert nda.procedures_deleted == (pending["nda_review"],)
    assert msa.procedures_deleted == ()
    [kept] = local.client.list_procedures("acme")
    assert (kept["procedure_id"], kept["status"]) == (pending["contract_review"], "VALIDATED")


def test_feedback_a_forgotten_run_gave_no_longer_counts(local: LocalMemory) -> None:
    # Given an approved procedure, applied by a run that reported success
    local.client.finish_run(run_event("run-1")).wait(timeout=30)
    [proposal] = local.client.list_procedures("acme")
    local.client.approve_procedure("acme", proposal["procedure_id"], reviewer="lead")
    local.client.bootstrap("acme", "reviewer", "liability cap", task_type="contract_review")
    local.client.record_procedure_result(
        "acme",
        "reviewer",
        "run-2",
        proposal["procedure_id"],
        True,
        task="liability cap",
        task_type="contract_review",
    ).wait(timeout=30)
    applied = local.client.get_procedure("acme", proposal["procedure_id"])
    assert applied["times_applied"] == 1

    # When the run that reported is forgotten
    receipt = local.client.forget_runs("acme", "reviewer", "run-2", reviewer="dpo")

    # Then its report no longer counts
    assert receipt.feedback == 1
    after = local.client.get_procedure("acme", proposal["procedure_id"])
    assert (after["times_applied"], after["times_succeeded"]) == (0, 0)


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"agent_id": "no/such agent"}, "agent_id"),
        ({"run_id": ""}, "run_id"),
        ({"reviewer": " "}, "actor"),
        ({"reason": "x" * 2_001}, "reason"),
        ({"reviewer": 7}, "reviewer"),
    ],
)
def test_bad_input_is_refused_by_name_and_nothing_is_forgotten(
    local: LocalMemory, arguments: dict[str, object], field: str
) -> None:
    three_agents_confirm(local)
    request: dict[str, object] = {
        "agent_id": "auditor",
        "run_id": "run-auditor",
        "reviewer": "dpo",
    } | arguments

    with pytest.raises(InvalidInputError) as refused:
        local.client.forget_runs("acme", **request)  # type: ignore[arg-type]

    assert refused.value.field == field
    assert local.client.get_episode("acme", "auditor", "run-auditor") is not None
    assert served_facts(local) == [FACT]
    assert local.client.history("acme")["decisions"] == []


def test_the_cli_forgets_one_run_and_prints_its_receipt(local: LocalMemory) -> None:
    # Given the store of three confirming runs, closed by its client
    three_agents_confirm(local)
    local.client.close()
    home = local.store.parent
    args = ("forget", "--tenant", "acme", "--agent", "auditor", "--run", "run-auditor")

    # When the run is forgotten without a terminal and without --yes, then with --yes
    unconfirmed = cli(home, "--store", str(local.store), *args)
    forgotten = cli(home, "--store", str(local.store), *args, "--yes", "--reason", "poisoned")

    # Then the first is refused, naming --yes, and the second prints the receipt
    assert unconfirmed.returncode == 2 and "--yes" in unconfirmed.stderr
    assert forgotten.returncode == 0, forgotten.stderr
    receipt = json.loads(forgotten.stdout)
    assert receipt["runs"] == ["auditor/run-auditor"]
    assert receipt["facts_withdrawn"] == [f"contracts/{HASH}"]
    history = cli(home, "--store", str(local.store), "history", "--tenant", "acme", "--json")
    [decision] = json.loads(history.stdout)["decisions"]
    assert (decision["action"], decision["reason"]) == ("forget", "poisoned")


def test_the_cli_refuses_a_run_without_its_agent(tmp_path: Path) -> None:
    store = tmp_path / "store"
    refused = cli(tmp_path, "--store", str(store), "forget", "--tenant", "acme", "--run", "r-1")
    assert refused.returncode == 2 and "--agent" in refused.stderr


def test_the_readmes_forget_line_runs_as_typed(tmp_path: Path) -> None:
    # Given a store holding the run the README's line names
    from tests.infrastructure.test_documented_deploys import documented_shell_lines

    [line] = [
        typed
        for _, typed in documented_shell_lines()
        if typed.startswith("agent-memory forget") and "--agent" in typed
    ]
    local = make_local(tmp_path / "store")
    local.client.finish_run(run_event("run-7")).wait(timeout=30)
    local.client.close()
    # When it runs as typed, on that store
    done = cli(tmp_path, "--store", str(local.store), *shlex.split(line)[1:])
    # Then the run is forgotten
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["runs"] == ["reviewer/run-7"]


def test_forgetting_an_agent_closes_its_flags(local: LocalMemory) -> None:
    # Given the auditor flagging the fact it was served
    three_agents_confirm(local)
    local.client.flag_memory("acme", "auditor", "fact", HASH, reason="Looks wrong to me")

    receipt = local.client.forget_runs("acme", "auditor", reviewer="dpo")

    # Then its flag went with it
    assert receipt.flags == 1
    assert local.client.forget_runs("acme", "auditor", reviewer="dpo").found is False
