"""Which PII detectors a deployment runs, as the Lambda functions and the operator read it:
``PII_DETECTOR`` in a scrubbing function's environment, the ``PiiDetector`` stack output for the
CLI and SDK. Unset means the local detector alone.
"""

from __future__ import annotations

import pytest

from agent_memory.core.model.errors import InvalidInput
from agent_memory.wiring.aws_settings import AwsSettings
from agent_memory.wiring.detectors import PiiDetectorChoice

REQUIRED = {
    name: "x"
    for name in (
        "EPISODES_TABLE FACTS_TABLE PROCEDURES_TABLE LEDGER_TABLE KB_BUCKET "
        "KNOWLEDGE_BASE_ID KB_DATA_SOURCE_ID"
    ).split()
}
OUTPUTS = {
    name: "x"
    for name in (
        "EpisodesTableName FactsTableName ProceduresTableName LedgerTableName "
        "DocumentsBucketName KnowledgeBaseId DataSourceId"
    ).split()
}


def test_a_function_without_the_variable_runs_the_local_detector() -> None:
    # Given a function's environment that names no detector (or names none: empty)
    # When its settings are read, Then it scrubs with the local detector alone
    assert AwsSettings.from_environment(REQUIRED).pii_detector is PiiDetectorChoice.LOCAL
    empty = {**REQUIRED, "PII_DETECTOR": ""}
    assert AwsSettings.from_environment(empty).pii_detector is PiiDetectorChoice.LOCAL


@pytest.mark.parametrize(
    ("written", "chosen"),
    [
        ("local", PiiDetectorChoice.LOCAL),
        ("comprehend", PiiDetectorChoice.COMPREHEND),
        (" Comprehend ", PiiDetectorChoice.COMPREHEND),
    ],
)
def test_a_function_reads_the_deployments_choice(written: str, chosen: PiiDetectorChoice) -> None:
    # Given the variable the stack sets on a scrubbing function
    settings = AwsSettings.from_environment({**REQUIRED, "PII_DETECTOR": written})
    # Then the function runs that choice
    assert settings.pii_detector is chosen


@pytest.mark.parametrize("written", ["presidio", "aws", "local,comprehend"])
def test_an_unknown_detector_is_refused_naming_the_variable_and_the_choices(
    written: str,
) -> None:
    # Given a function told a detector that does not exist
    # When its settings are read, Then it refuses at its cold start, naming what to fix
    with pytest.raises(InvalidInput) as raised:
        AwsSettings.from_environment({**REQUIRED, "PII_DETECTOR": written})
    assert raised.value.field == "PII_DETECTOR"
    assert "local" in raised.value.message and "comprehend" in raised.value.message


def test_the_operator_reads_the_choice_from_the_stack_outputs() -> None:
    # Given the outputs of stacks deployed with each choice, and of one that predates it
    chosen = {
        detector: AwsSettings.from_stack_outputs({**OUTPUTS, "PiiDetector": detector})
        for detector in ("local", "comprehend")
    }
    older = AwsSettings.from_stack_outputs(OUTPUTS)
    # Then the CLI and SDK scrub as the stack's functions do; without the output, locally
    assert chosen["local"].pii_detector is PiiDetectorChoice.LOCAL
    assert chosen["comprehend"].pii_detector is PiiDetectorChoice.COMPREHEND
    assert older.pii_detector is PiiDetectorChoice.LOCAL


def test_an_unknown_output_is_refused_naming_it() -> None:
    with pytest.raises(InvalidInput) as raised:
        AwsSettings.from_stack_outputs({**OUTPUTS, "PiiDetector": "macie"})
    assert raised.value.field == "PiiDetector"
