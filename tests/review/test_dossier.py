"""What the review page knows of a procedure: its runs, its record, what it would replace."""

from agent_memory.app import Application
from agent_memory.app.handlers.dossier import MAX_RUNS_SHOWN, RunFinder, review_item
from agent_memory.app.messages import ReviewQueue
from agent_memory.core.model.models import SOURCE_RUN_IDS_KEPT, Procedure, ProcedureStatus
from agent_memory.core.workflows.decay import decay
from tests.review.scenario import Scenario, consolidate_run
from tests.support.memory import Memory


def test_the_queue_holds_pending_procedures_not_validated_ones(
    memory: Memory, scenario: Scenario
) -> None:
    queue = Application(memory.ports).handle(ReviewQueue())
    assert [item.procedure.procedure_id for item in queue] == [scenario.proposed_id]


def test_a_re_proposal_is_compared_with_the_procedure_served_now(
    memory: Memory, scenario: Scenario
) -> None:
    (item,) = Application(memory.ports).handle(ReviewQueue())
    assert item.served is not None and item.served.procedure_id == scenario.served_id
    assert item.served_trial
    assert item.diff.title_changed
    assert [c.kind for c in item.diff.changes] == ["same", "changed", "added", "same"]


def test_source_runs_show_each_run_s_agent_summary_and_outcome(
    memory: Memory, scenario: Scenario
) -> None:
    (item,) = Application(memory.ports).handle(ReviewQueue())
    shown = [(r.run_id, r.found_in, r.agent_id, r.summary, r.outcome) for r in item.runs]
    assert shown == [
        ("run-002", "episode", "reviewer", "Found a cap at 0.5x fees", "COMPLETED"),
        ("run-003", "episode", "checker", "Checked the Tailspin indemnities", "COMPLETED"),
    ]


def test_a_run_whose_episode_is_gone_is_shown_from_its_run_record(
    memory: Memory, scenario: Scenario
) -> None:
    # Given the episode of run-002 deleted, its ledger record kept
    assert memory.ports.episodes.delete("acme", "reviewer", "run-002")
    # When the run is looked up by its marker, as the procedure logs it
    (run,) = RunFinder(memory.ports).find("acme", ["reviewer/run-002"])
    # Then the record's scrubbed summary and outcome stand in for it
    assert (run.found_in, run.agent_id, run.summary, run.outcome) == (
        "run record",
        "reviewer",
        "Found a cap at 0.5x fees",
        "COMPLETED",
    )


def test_a_run_without_a_record_is_found_among_the_tenant_s_episodes(
    memory: Memory, scenario: Scenario
) -> None:
    # Given run-003's ledger record expired (it names the agent, whom the episode key needs)
    memory.ports.run_ledger.delete("acme#run#checker/run-003")
    # When the run is looked up by its bare id (as procedures logged runs before markers)
    (run,) = RunFinder(memory.ports).find("acme", ["run-003"])
    # Then the tenant's episodes are searched for it
    assert (run.found_in, run.agent_id, run.summary) == (
        "episode",
        "checker",
        "Checked the Tailspin indemnities",
    )


def test_a_run_memory_no_longer_holds_is_still_listed(memory: Memory, scenario: Scenario) -> None:
    memory.ports.run_ledger.delete("acme#run#reviewer/run-002")
    memory.ports.episodes.delete("acme", "reviewer", "run-002")
    (run,) = RunFinder(memory.ports).find("acme", ["reviewer/run-002"])
    assert (run.run_id, run.found_in, run.summary) == ("run-002", "not stored", None)


def test_a_procedure_flagged_by_decay_is_queued_with_the_reason(
    memory: Memory, scenario: Scenario
) -> None:
    # Given the served procedure failed its three trial uses and decay flagged it
    for run_id in ("run-101", "run-102", "run-103"):
        memory.ports.procedures.record_feedback(
            scenario.served_id,
            tenant_id="acme",
            run_id=run_id,
            receipt_id=f"receipt-{run_id}",
            succeeded=False,
            now=memory.clock(),
        )
    decay(
        memory.ports.episodes,
        memory.ports.facts,
        memory.ports.procedures,
        memory.ports.run_ledger,
        memory.ports.checkpoints,
        now=memory.clock(),
        policy=memory.ports.policies.decay,
    )
    # When the queue is read
    flagged = {
        i.procedure.procedure_id: i for i in Application(memory.ports).handle(ReviewQueue())
    }[scenario.served_id]
    # Then it is there, with why it was flagged and its record
    assert flagged.procedure.status is ProcedureStatus.NEEDS_REVIEW
    assert flagged.flagged_because == "success rate 0% after 3 uses, below 60%"
    assert (flagged.procedure.times_applied, flagged.procedure.times_succeeded) == (3, 0)


def test_a_tenant_s_queue_holds_only_its_own_procedures(memory: Memory, scenario: Scenario) -> None:
    other = consolidate_run(memory, "run-900", title="NDA", steps=["Read"], tenant_id="globex")
    everyone = {i.procedure.procedure_id for i in Application(memory.ports).handle(ReviewQueue())}
    acme = {i.procedure.procedure_id for i in Application(memory.ports).handle(ReviewQueue("acme"))}
    assert everyone == {scenario.proposed_id, other}
    assert acme == {scenario.proposed_id}


def test_a_procedure_proposed_by_more_runs_than_its_log_names_counts_them_all(
    memory: Memory, scenario: Scenario
) -> None:
    # Given a procedure proposed by more distinct runs than the store names
    total = SOURCE_RUN_IDS_KEPT + 15
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
    stored = memory.ports.procedures.get("proc-common")
    assert stored is not None
    # When its review item is built
    item = review_item(memory.ports, stored)
    # Then it shows the first runs and counts every other one as not shown
    assert len(item.runs) == min(MAX_RUNS_SHOWN, SOURCE_RUN_IDS_KEPT)
    assert len(item.runs) + item.runs_not_shown == total
