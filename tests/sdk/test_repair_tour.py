"""Every kind of decision a person (or, for a flag, an agent) makes about a tenant's memory, made
once each through the surfaces people use (the SDK, the CLI), then read back: ``history`` lists
each, newest first, with who decided and why, and ``export`` carries the same decisions.
"""

from __future__ import annotations

import json
from pathlib import Path

from agent_memory.core.tiers.semantic import fact_hash
from tests.e2e.test_cli_options import cli
from tests.sdk.conftest import make_local
from tests.support.memory import run_event

FACT = "Liability caps below 1x fees are a red flag"


def test_history_lists_every_decision_made_about_memory(tmp_path: Path) -> None:
    # Given a tenant where three agents confirmed a fact and proposed a procedure, and a run of
    # another task type proposed a second one
    local = make_local(tmp_path / "store")
    client = local.client
    for agent in ("reviewer", "drafter", "auditor"):
        client.finish_run(run_event(f"run-{agent}", agent_id=agent)).wait(timeout=30)
    nda = run_event("run-nda", task_type="nda_review", task="Review the Zanzibar-77 NDA")
    nda["artifacts"] = {
        **nda["artifacts"],
        "procedure": {"title": "NDA review", "steps": ["Read the term"]},
    }
    client.finish_run(nda).wait(timeout=30)
    pending = {p["task_type"]: p["procedure_id"] for p in client.list_procedures("acme")}
    msa, nda_id = pending["contract_review"], pending["nda_review"]

    # When people repair it, one decision of each kind
    made = []
    client.edit_procedure(
        "acme", msa, ["Read clause 7.3", "Compare the cap to fees"], reviewer="lead", reason="x"
    )
    made.append("edit")
    client.approve_procedure("acme", msa, reviewer="lead")
    made.append("approve")
    client.retire_procedure("acme", msa, reviewer="lead", reason="superseded")
    made.append("retire")
    client.reject_procedure("acme", nda_id, reviewer="counsel", reason="too thin")
    made.append("reject")
    client.retract_fact("acme", "contracts", fact_hash(FACT), reviewer="dpo", reason="wrong")
    made.append("retract")
    asserted = client.assert_fact(
        "acme", "contracts", "Caps are negotiated per deal", reviewer="dpo", reason="policy"
    )
    made.append("assert")
    client.correct_fact(
        "acme",
        "contracts",
        asserted["fact_hash"],
        "Caps are negotiated per deal, never below 1x fees",
        reviewer="dpo",
        reason="more precise",
    )
    made.append("correct")
    flagged = client.flag_memory("acme", "drafter", "episode", "run-drafter", "Out of date")
    made.append("flag")
    client.forget_runs("acme", "auditor", "run-auditor", reviewer="dpo", reason="poisoned")
    made.append("forget")
    client.redact("acme", "Zanzibar-77", reviewer="dpo", reason="a code name")
    made.append("redact")
    client.close()
    dismissed = cli(
        tmp_path, "--store", str(local.store), "flags", "dismiss", flagged["flag_id"],
        "--tenant", "acme", "--reviewer", "lead", "--reason", "still right",
    )  # fmt: skip
    assert dismissed.returncode == 0, dismissed.stderr
    made.append("dismiss")

    # Then the history lists each decision once, newest first, each with who and when
    listed = cli(tmp_path, "--store", str(local.store), "history", "--tenant", "acme", "--json")
    decisions = json.loads(listed.stdout)["decisions"]
    assert [d["action"] for d in decisions] == list(reversed(made))
    assert all(d["actor"] and d["at"] for d in decisions)
    assert {d["actor"] for d in decisions if d["action"] == "flag"} == {"agent:drafter"}
    # And no decision holds what was redacted
    assert "Zanzibar" not in listed.stdout
    # And the export carries the same decisions
    exported = cli(tmp_path, "--store", str(local.store), "export", "--tenant", "acme")
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    kept = [line["record"]["decision_id"] for line in lines if line["kind"] == "decision"]
    assert sorted(kept) == sorted(d["decision_id"] for d in decisions)
