from agent_memory.core.models import FactCandidate, RunArtifacts
from agent_memory.core.semantic import fact_hash, facts_worth_keeping, normalize_fact


def artifacts(outcome: str, *facts: tuple[str, float]) -> RunArtifacts:
    return RunArtifacts(
        task_summary="s",
        outcome=outcome,  # type: ignore[arg-type]
        facts=tuple(FactCandidate(c, conf) for c, conf in facts),
    )


def test_wordings_that_differ_only_in_form_share_a_hash() -> None:
    a = "Clause 7.3 usually covers liability caps."
    b = "  clause 7.3   USUALLY covers liability caps "
    c = "Clause 7.3 usually covers liability caps\u2014"
    assert normalize_fact(a) == "clause 7.3 usually covers liability caps"
    assert fact_hash(a) == fact_hash(b)
    assert fact_hash(a) != fact_hash(c.replace("7.3", "7.4"))


def test_curly_quotes_and_dashes_are_unified() -> None:
    assert fact_hash("Vendor\u2019s cap \u2013 2x") == fact_hash("vendor's cap - 2x")


def test_only_completed_runs_teach_facts() -> None:
    for outcome in ("PARTIAL", "FAILED", "UNKNOWN"):
        assert facts_worth_keeping(artifacts(outcome, ("fact", 0.99))) == []


def test_confidence_threshold_is_inclusive_at_0_7() -> None:
    kept = facts_worth_keeping(artifacts("COMPLETED", ("at", 0.7), ("below", 0.6999)))
    assert [f.content for f in kept] == ["at"]


def test_a_fact_stated_twice_in_one_run_counts_once() -> None:
    kept = facts_worth_keeping(artifacts("COMPLETED", ("Cap is 2x", 0.8), ("cap is 2x.", 0.9)))
    assert len(kept) == 1 and kept[0].confidence == 0.9
