"""`agent-memory --aws-stack NAME export|forget`: tenant-wide operations on a deployed stack.

The stack is a CloudFormation stack on moto whose outputs name moto tables and bucket, as the
real stack's outputs do; the CLI reads them and works with the caller's credentials.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import boto3
import pytest
from moto import mock_aws

from agent_memory.adapters.aws.retention import AWS_RETENTION
from agent_memory.app.messages import FlagMemory, History
from agent_memory.cli.main import main
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.tenant_identity import TenantIdentity, tenant_source
from agent_memory.core.workflows import consolidation
from agent_memory.serverless import caller_tenancy
from agent_memory.wiring import aws as wiring
from agent_memory.wiring.aws_settings import AwsSettings
from tests.integration.aws.moto_dynamodb import FAKE_CREDENTIALS, REGION, create_tables
from tests.support.botocore_answers import answer
from tests.support.embedder import HashingEmbedder
from tests.support.fake_titan import invoke_model
from tests.support.fakes import FakePiiDetector
from tests.support.memory import HASHING_CALIBRATION, run_event
from tests.workflow.conftest import eventbridge_event

STACK = "AgentMemory"
BUCKET = "kb-docs"


@dataclass
class Cli:
    capsys: pytest.CaptureFixture[str]
    runtime: wiring.AwsRuntime
    outputs: dict[str, str]
    region: str = REGION
    stack: str = STACK

    def __call__(self, *argv: str) -> tuple[int, str, str]:
        code = main(["--aws-stack", self.stack, "--region", self.region, *argv])
        captured = self.capsys.readouterr()
        return code, captured.out, captured.err


@contextmanager
def moto_stack(
    capsys: pytest.CaptureFixture[str], region: str = REGION, stack: str = STACK
) -> Iterator[Cli]:
    """A stack named ``stack`` in ``region`` on moto: its outputs, tables, bucket, queue and
    state machine, two tenants' runs consolidated into it.
    """
    with mock.patch.dict(os.environ, FAKE_CREDENTIALS), mock_aws(), titan_on_moto():
        tables = create_tables(boto3.client("dynamodb", region_name=region))
        boto3.client("s3", region_name=region).create_bucket(
            Bucket=BUCKET,
            **(
                {}
                if region == "us-east-1"
                else {"CreateBucketConfiguration": {"LocationConstraint": region}}
            ),
        )
        queue_url = boto3.client("sqs", region_name=region).create_queue(QueueName="dlq")[
            "QueueUrl"
        ]
        outputs = {
            "StateMachineArn": _state_machine(region),
            "DeadLetterQueueUrl": queue_url,
            **{f"{name.title()}TableName": table for name, table in tables.items()},
            "DocumentsBucketName": BUCKET,
            "KnowledgeBaseId": "KB12345678",
            "DataSourceId": "DS12345678",
        }
        _deploy(outputs, region, stack)
        settings = AwsSettings.from_stack_outputs(outputs)
        runtime = wiring.AwsRuntime(
            settings,
            session=boto3.Session(region_name=region),
            embedder=HashingEmbedder(),
            pii=FakePiiDetector(),
            calibrations={"test-hashing": HASHING_CALIBRATION},
        )
        for tenant in ("acme", "globex"):
            for run_id in ("run-1", "run-2"):
                consolidation.consolidate(
                    run_event(run_id, tenant_id=tenant), runtime.ports(tenant)
                )
        yield Cli(capsys, runtime, outputs, region, stack)


@contextmanager
def titan_on_moto() -> Iterator[None]:
    """Titan's embeddings answered on every ``bedrock-runtime`` client made meanwhile (an
    operator's command that embeds, ``redact``, builds its own).
    """
    made = boto3.Session.client

    def served(session: boto3.Session, *args: Any, **kwargs: Any) -> Any:
        client = made(session, *args, **kwargs)
        if client.meta.service_model.service_name == "bedrock-runtime":
            answer(client, "InvokeModel", invoke_model())
        return client

    with mock.patch.object(boto3.Session, "client", served):
        yield


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Iterator[Cli]:
    with moto_stack(capsys) as stack:
        yield stack


def _state_machine(region: str = REGION) -> str:
    """A state machine on moto (not run here: a replay is a new execution of it)."""
    role = boto3.client("iam", region_name=region).create_role(
        RoleName="consolidation", AssumeRolePolicyDocument="{}"
    )["Role"]["Arn"]
    definition = {"StartAt": "Done", "States": {"Done": {"Type": "Succeed"}}}
    return str(
        boto3.client("stepfunctions", region_name=region).create_state_machine(
            name="consolidation", definition=json.dumps(definition), roleArn=role
        )["stateMachineArn"]
    )


def _deploy(outputs: dict[str, str], region: str = REGION, stack: str = STACK) -> None:
    template = {
        "Resources": {"Marker": {"Type": "AWS::SQS::Queue"}},
        "Outputs": {key: {"Value": value} for key, value in outputs.items()},
    }
    boto3.client("cloudformation", region_name=region).create_stack(
        StackName=stack, TemplateBody=json.dumps(template)
    )


def _records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_export_prints_every_record_of_the_tenant_and_none_of_another(cli: Cli):
    # When acme's records are exported from the stack
    code, out, _ = cli("export", "--tenant", "acme")
    # Then both runs' episodes, the fact and the procedure are there, all of acme
    assert code == 0
    records = _records(out)
    episodes = [r["record"] for r in records if r["kind"] == "episode"]
    assert {e["run_id"] for e in episodes} == {"run-1", "run-2"}
    assert {r["kind"] for r in records} >= {"episode", "fact", "procedure"}
    assert {r["record"]["tenant_id"] for r in records if "tenant_id" in r["record"]} == {"acme"}


def test_forget_erases_one_tenant_on_the_stack_and_keeps_the_other(cli: Cli) -> None:
    _, before, _ = cli("export", "--tenant", "globex")
    # When acme is forgotten on the stack
    code, out, _ = cli("forget", "--tenant", "acme", "--yes")
    # Then its episodes, fact and procedure are gone, and globex is exactly as it was
    assert code == 0
    receipt = json.loads(out)
    assert (receipt["episodes"], receipt["facts"], receipt["procedures"]) == (2, 1, 1)
    assert cli("export", "--tenant", "acme")[1] == ""
    assert cli("export", "--tenant", "globex")[1] == before


def test_forget_on_the_stack_receipts_what_it_cannot_reach_and_until_when(cli: Cli) -> None:
    # When acme is forgotten on the stack
    _, out, _ = cli("forget", "--tenant", "acme", "--yes")
    receipt = json.loads(out)
    # Then the receipt names the tenant, the time, and what it deleted in each store
    assert (receipt["operation"], receipt["tenant_id"]) == ("forget", "acme")
    assert receipt["ledger_records"] == 2  # the two runs' records
    assert (receipt["kb_documents"], receipt["kb_index"]) == (0, "untouched")
    # And every copy the stack keeps beyond forget's reach, with the day it expires
    at = datetime.fromisoformat(receipt["at"])
    remains = {r["where"]: datetime.fromisoformat(r["until"]) - at for r in receipt["remains"]}
    assert remains == {r.where: timedelta(days=r.days) for r in AWS_RETENTION}
    assert remains["DynamoDB point-in-time recovery (every table)"] == timedelta(days=35)
    pitr = [r for r in receipt["remains"] if r["where"].startswith("DynamoDB")]
    assert "restorable" in pitr[0]["what"]


def test_export_on_the_stack_receipts_what_it_wrote(cli: Cli) -> None:
    code, out, err = cli("export", "--tenant", "acme")
    receipt = json.loads(err)
    assert code == 0
    assert (receipt["operation"], receipt["tenant_id"], receipt["episodes"]) == (
        "export",
        "acme",
        2,
    )
    assert receipt["sha256"] == hashlib.sha256(out.encode()).hexdigest()


def test_a_stack_that_does_not_exist_is_one_clear_error(cli: Cli):
    code = main(["--aws-stack", "nope", "--region", REGION, "export", "--tenant", "acme"])
    err = cli.capsys.readouterr().err
    assert code == 1
    assert err.startswith("agent-memory: error: cannot read stack 'nope'")
    assert "Traceback" not in err


def test_commands_of_the_local_store_are_refused_on_a_stack(cli: Cli):
    code, _, err = cli("decay")
    assert code == 2
    assert (
        "--aws-stack works with export, facts, failed, flags, forget, history, redact; decay runs "
        "on the local store" in err
    )


def test_an_operator_lists_and_shows_a_tenants_facts_on_a_stack(cli: Cli):
    listed = cli("facts", "list", "--tenant", "acme", "--json")
    missing = cli("facts", "retract", "0" * 32, "--tenant", "acme", "--domain", "c", "--yes")
    page = json.loads(listed[1])
    assert listed[0] == 0 and page["cursor"] is None
    assert {f["tenant_id"] for f in page["facts"]} <= {"acme"}
    assert missing[0] == 3 and "no fact" in missing[2]  # not found


def test_an_operator_lists_and_dismisses_an_agents_flag_on_the_stack(cli: Cli) -> None:
    # Given acme's reviewer flagging its episode of run-1 (as the bootstrap function keeps it)
    app = cli.runtime.application("acme")
    flagged = app.handle(FlagMemory("acme", "reviewer", "episode", "run-1", "Out of date"))
    # When an operator lists acme's flags, then globex's, on the stack
    code, out, err = cli("flags", "list", "--tenant", "acme", "--json")
    assert code == 0, err
    assert [f["flag_id"] for f in json.loads(out)["flags"]] == [flagged["flag_id"]]
    assert "no open flags" in cli("flags", "list", "--tenant", "globex")[1]
    # When they dismiss it, then it is closed and the history holds both decisions
    code, out, err = cli(
        "flags",
        "dismiss",
        flagged["flag_id"],
        "--tenant",
        "acme",
        "--reviewer",
        "ops",
        "--reason",
        "Still right",
    )
    assert code == 0, err
    assert json.loads(cli("flags", "list", "--tenant", "acme", "--json")[1])["flags"] == []
    decisions = app.handle(History("acme"))["decisions"]
    assert [d["action"] for d in decisions] == ["dismiss", "flag"]


def test_a_stack_without_a_table_output_is_named(cli: Cli):
    with pytest.raises(InvalidInput, match="EpisodesTableName"):
        AwsSettings.from_stack_outputs({"FactsTableName": "facts"})


def _fail_a_run(cli: Cli, run_id: str) -> dict:
    """A run recorded as failed by the stack (record_failure) and its dead letter."""
    detail = run_event(run_id, tenant_id="acme")
    record = consolidation.record_failure(
        {"event": detail, "error": {"Error": "PiiDetectionFailed", "Cause": "down"}},
        cli.runtime.ports(None),
    )
    letter = {"execution": "arn:x", "failure": {"record": {"key": record.record.key}}}
    boto3.client("sqs", region_name=cli.region).send_message(
        QueueUrl=cli.outputs["DeadLetterQueueUrl"], MessageBody=json.dumps(letter)
    )
    return detail


def test_failed_runs_are_listed_and_replayed_once_on_the_stack(cli: Cli):
    # Given a run the stack recorded as failed, with its dead letter
    detail = _fail_a_run(cli, "run-failed-1")
    # When the operator lists the stack's failed runs
    code, out, _ = cli("failed", "list")
    # Then the run is there with its error
    key = "acme#failed#reviewer/run-failed-1"
    assert code == 0 and out.startswith(f"{key}  failures=1  PiiDetectionFailed")
    # When it is replayed twice
    assert cli("failed", "replay")[0] == 0
    assert cli("failed", "replay", key)[0] == 0
    # Then the state machine was started once, with the run's event, and the letter is gone
    sfn = boto3.client("stepfunctions", region_name=REGION)
    executions = sfn.list_executions(stateMachineArn=cli.outputs["StateMachineArn"])
    [execution] = executions["executions"]
    started = sfn.describe_execution(executionArn=execution["executionArn"])
    assert json.loads(started["input"]) == detail
    queue = boto3.client("sqs", region_name=REGION)
    left = queue.receive_message(QueueUrl=cli.outputs["DeadLetterQueueUrl"], WaitTimeSeconds=0)
    assert left.get("Messages", []) == []


def test_an_incomplete_run_is_listed_and_redelivered_by_its_identity_on_the_stack(cli: Cli):
    # Given a run scrubbed on the stack whose execution never finished (no failure record)
    ports = cli.runtime.ports("acme")
    state = consolidation.extract(run_event("run-cut-1", tenant_id="acme"), ports)
    consolidation.scrub(state, ports)
    # When the operator lists the runs awaiting replay, counting every unfinished run
    code, out, _ = cli("failed", "list", "--incomplete-after", "0")
    # Then it is named as incomplete
    recorded = ports.run_ledger.run("acme", "reviewer", "run-cut-1", now=ports.clock())
    assert recorded is not None
    key = recorded.key
    assert code == 0 and f"{key}  started=" in out
    # When it is replayed
    assert cli("failed", "replay", key, "--incomplete-after", "0")[0] == 0
    # Then the state machine was started on the run's identity (extract answers it from the
    # run's record), and a second replay starts nothing more
    assert cli("failed", "replay", key, "--incomplete-after", "0")[0] == 0
    sfn = boto3.client("stepfunctions", region_name=REGION)
    [execution] = sfn.list_executions(stateMachineArn=cli.outputs["StateMachineArn"])["executions"]
    started = json.loads(sfn.describe_execution(executionArn=execution["executionArn"])["input"])
    assert started["source"] == tenant_source("acme")
    detail = started["detail"]
    assert (detail["tenant_id"], detail["agent_id"], detail["run_id"]) == (
        "acme",
        "reviewer",
        "run-cut-1",
    )
    assert consolidation.extract(started, ports).extracted_by == "ledger"
    # And extract under principal-tag tenancy takes it as the tenant's own
    caller_tenancy.check_source(_principal_tag(cli.runtime), started, "acme")


def _principal_tag(runtime: wiring.AwsRuntime) -> wiring.AwsRuntime:
    """The stack's runtime under principal-tag tenancy."""
    settings = dataclasses.replace(runtime.settings, tenant_identity=TenantIdentity.PRINCIPAL_TAG)
    return wiring.AwsRuntime(settings, session=runtime.session)


def test_a_failed_run_replays_with_the_envelope_it_came_with(cli: Cli) -> None:
    # Given a run a tenant put on the bus under principal-tag tenancy, recorded as failed from
    # its execution's input (the whole EventBridge event, the tenant's source in it)
    envelope = eventbridge_event(run_event("run-enveloped-1", tenant_id="acme"))
    envelope["source"] = tenant_source("acme")
    consolidation.record_failure(
        {"event": envelope, "error": {"Error": "States.Timeout", "Cause": "slow"}},
        cli.runtime.ports(None),
    )
    # When the operator replays it
    assert cli("failed", "replay")[0] == 0
    # Then the execution starts on the event as delivered, and extract under principal-tag
    # takes it as the tenant's own (before: the bare detail, refused as Forbidden)
    sfn = boto3.client("stepfunctions", region_name=REGION)
    [execution] = sfn.list_executions(stateMachineArn=cli.outputs["StateMachineArn"])["executions"]
    started = json.loads(sfn.describe_execution(executionArn=execution["executionArn"])["input"])
    assert started == envelope
    caller_tenancy.check_source(_principal_tag(cli.runtime), started, "acme")
