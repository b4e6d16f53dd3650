import pytest

from agent_memory.core.tiers.contradiction import contradiction


@pytest.mark.parametrize(
    ("new", "old", "why"),
    [
        (
            "A liability cap below 1x annual fees is a red flag",
            "A liability cap below 2x annual fees is a red flag",
            "different figures",
        ),
        (
            "Auto-renewal needs 90 days notice",
            "Auto-renewal needs 30 days notice",
            "different figures",
        ),
        (
            "Vendors may terminate for convenience",
            "Vendors may not terminate for convenience",
            "negates",
        ),
        ("Indemnity caps don't apply to IP claims", "Indemnity caps apply to IP claims", "negates"),
        (
            "Interest is charged above the base rate",
            "Interest is charged below the base rate",
            "opposite words",
        ),
    ],
)
def test_statements_about_the_same_thing_that_disagree_contradict(
    new: str, old: str, why: str
) -> None:
    reason = contradiction(new, old)
    assert reason is not None and why in reason


@pytest.mark.parametrize(
    ("new", "old"),
    [
        # Different subjects, even with different numbers.
        ("Invoices are due in 30 days", "Clause 7.3 usually holds the liability cap"),
        # The same statement worded differently.
        ("A cap below 1x annual fees is a red flag", "a cap below 1x annual fees is a red flag!"),
        # Agreement with an extra, non-conflicting detail.
        (
            "Liability caps below 1x fees are a red flag in vendor MSAs",
            "Liability caps below 1x fees are a red flag",
        ),
    ],
)
def test_unrelated_or_agreeing_statements_do_not_contradict(new: str, old: str) -> None:
    assert contradiction(new, old) is None
