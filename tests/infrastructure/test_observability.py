"""Observability: alarms on what needs a human, their encrypted topic, and the dashboard a
deployer may add (``-c dashboard=true``; $3 a month beyond an account's first three,
https://aws.amazon.com/cloudwatch/pricing/)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_cdk import App
from aws_cdk.assertions import Template

from agent_memory.core.workflows.stats import gauge_names
from stacks.consolidation import STEP_FUNCTIONS
from stacks.functions import SPECS
from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import (
    Resources,
    actions,
    logical_id,
    references,
    statements_of,
    text,
)

Metric = tuple[str, str, dict[str, str], dict[str, Any]]
# The stack's own namespace (the session's stack is named AgentMemory).
NAMESPACE = "AgentMemory/AgentMemory"


def _alarms(resources: Resources) -> dict[str, dict[str, Any]]:
    """Alarm properties by alarm name."""
    return {
        r["Properties"]["AlarmName"]: r["Properties"]
        for r in resources.values()
        if r["Type"] == "AWS::CloudWatch::Alarm"
    }


def _alarm_on(resources: Resources, namespace: str, name: str, dimension: Any) -> dict[str, Any]:
    """The one alarm watching ``namespace``/``name`` whose only dimension has this value."""
    [alarm] = [
        a
        for a in _alarms(resources).values()
        if (a["Namespace"], a["MetricName"]) == (namespace, name)
        and [d["Value"] for d in a["Dimensions"]] == [dimension]
    ]
    return alarm


def _fires_on_any(alarm: dict[str, Any], statistic: str) -> None:
    assert alarm["Statistic"] == statistic
    assert alarm["Threshold"] == 0
    assert alarm["ComparisonOperator"] == "GreaterThanThreshold"
    assert alarm["EvaluationPeriods"] == 1
    assert alarm["Period"] == 300
    # No data (an idle queue, no executions) is not an incident.
    assert alarm["TreatMissingData"] == "notBreaching"


def _body(resources: Resources) -> dict[str, Any]:
    """The dashboard body as JSON, each CloudFormation token replaced by its logical id."""
    [dashboard] = [r for r in resources.values() if r["Type"] == "AWS::CloudWatch::Dashboard"]
    parts = dashboard["Properties"]["DashboardBody"]["Fn::Join"][1]
    body = "".join(p if isinstance(p, str) else _token(p) for p in parts)
    parsed: dict[str, Any] = json.loads(body)
    return parsed


def _token(fragment: dict[str, Any]) -> str:
    if "Ref" in fragment:
        return f"<{fragment['Ref']}>"
    if "Fn::GetAtt" in fragment:
        return f"<{fragment['Fn::GetAtt'][0]}>"
    raise AssertionError(f"unexpected token in the dashboard: {fragment}")


def _metrics(body: dict[str, Any]) -> list[Metric]:
    """(namespace, name, dimensions, options) of every metric of every graph."""
    found = []
    for widget in body["widgets"]:
        for line in widget["properties"].get("metrics", []):
            options = line[-1] if isinstance(line[-1], dict) else {}
            fields = [f for f in line if isinstance(f, str)]
            dimensions = dict(zip(fields[2::2], fields[3::2], strict=True))
            found.append((fields[0], fields[1], dimensions, options))
    return found


@pytest.fixture(scope="module")
def alarms(resources: Resources) -> dict[str, dict[str, Any]]:
    return _alarms(resources)


@pytest.fixture(scope="module")
def dashboard(dashboard_template: Template) -> list[Metric]:
    return _metrics(_body(dashboard_template.to_json()["Resources"]))


def test_the_dashboard_is_the_deployers_choice(
    resources: Resources, template: Template, dashboard_template: Template
) -> None:
    # Given the default deployment and one with -c dashboard=true
    kinds = {r["Type"] for r in resources.values()}
    with_dashboard = dashboard_template.to_json()
    # Then only the second has a dashboard, and names it in its outputs; both have the alarms
    assert "AWS::CloudWatch::Dashboard" not in kinds
    assert "DashboardName" not in template.to_json()["Outputs"]
    assert "DashboardName" in with_dashboard["Outputs"]
    assert len(_alarms(resources)) == len(_alarms(with_dashboard["Resources"])) > 0


@pytest.mark.parametrize("value", ["yes", "1", "dashboard"])
def test_a_dashboard_flag_that_is_not_a_boolean_fails_synth_naming_it(
    context: dict[str, Any], value: str
) -> None:
    # Given a deployment with -c dashboard=<not true or false>
    app = App(context={**context, "dashboard": value})
    # When it is synthesized, Then the error names the setting
    with pytest.raises(Exception, match="dashboard must be true or false"):
        MemoryStack(app, "AgentMemoryBadDashboard")


def test_a_failed_run_waiting_in_the_dead_letter_queue_raises_an_alarm(
    stack: MemoryStack, resources: Resources
):
    queue = {"Fn::GetAtt": [logical_id(stack.storage.failed_runs), "QueueName"]}
    alarm = _alarm_on(resources, "AWS/SQS", "ApproximateNumberOfMessagesVisible", queue)
    _fires_on_any(alarm, "Maximum")


def test_an_undelivered_run_finished_event_raises_an_alarm(
    stack: MemoryStack, resources: Resources
):
    queue = {"Fn::GetAtt": [logical_id(stack.storage.undelivered_events), "QueueName"]}
    alarm = _alarm_on(resources, "AWS/SQS", "ApproximateNumberOfMessagesVisible", queue)
    _fires_on_any(alarm, "Maximum")


@pytest.mark.parametrize("metric", ["ExecutionsFailed", "ExecutionsTimedOut"])
def test_a_failed_or_timed_out_consolidation_raises_an_alarm(
    stack: MemoryStack, resources: Resources, metric: str
):
    machine = {"Ref": logical_id(stack.consolidation.state_machine)}
    _fires_on_any(_alarm_on(resources, "AWS/States", metric, machine), "Sum")


def test_a_failed_ingestion_job_raises_an_alarm(resources: Resources):
    alarm = _alarm_on(resources, NAMESPACE, "IngestionJobsFailed", "agent-memory")
    assert alarm["Dimensions"] == [{"Name": "service", "Value": "agent-memory"}]
    _fires_on_any(alarm, "Sum")


def test_functions_outside_the_state_machine_alarm_on_errors_and_throttles(
    stack: MemoryStack, resources: Resources
):
    # Given the functions nothing retries (the agent's bootstrap, review, the schedules' jobs)
    direct = set(stack.functions.functions) - set(STEP_FUNCTIONS)
    assert {"bootstrap", "procedure_review", "ingest", "decay"} <= direct
    # Then each has an alarm on any error and any throttle
    for name in direct:
        function = {"Ref": logical_id(stack.functions[name])}
        for metric in ("Errors", "Throttles"):
            _fires_on_any(_alarm_on(resources, "AWS/Lambda", metric, function), "Sum")


def test_consolidation_steps_are_left_to_the_execution_alarms(
    stack: MemoryStack, alarms: dict[str, dict[str, Any]]
):
    # Their transient errors are retried by the state machine; what survives fails the run.
    # record_failure is also invoked by a rule, asynchronously: it has its own alarms.
    steps = {
        json.dumps({"Ref": logical_id(stack.functions[n])})
        for n in STEP_FUNCTIONS
        if n != "record_failure"
    }
    watched = {json.dumps(d["Value"]) for a in alarms.values() for d in a.get("Dimensions", [])}
    assert not steps & watched


def test_every_alarm_notifies_the_topic_when_raised_and_when_cleared(
    stack: MemoryStack, alarms: dict[str, dict[str, Any]]
):
    topic = {"Ref": logical_id(stack.observability.topic)}
    assert len(alarms) >= 5
    for name, alarm in alarms.items():
        assert alarm["AlarmActions"] == [topic], name
        assert alarm["OKActions"] == [topic], name


def test_alarm_topic_is_encrypted_with_a_rotated_key_cloudwatch_may_use(
    stack: MemoryStack, resources: Resources
):
    key_id = logical_id(stack.observability.key)
    topic = resources[logical_id(stack.observability.topic)]["Properties"]
    assert topic["KmsMasterKeyId"] == {"Fn::GetAtt": [key_id, "Arn"]}
    key = resources[key_id]["Properties"]
    assert key["EnableKeyRotation"] is True
    [cloudwatch] = [
        s
        for s in key["KeyPolicy"]["Statement"]
        if s["Principal"] == {"Service": "cloudwatch.amazonaws.com"}
    ]
    assert sorted(actions(cloudwatch)) == ["kms:Decrypt", "kms:GenerateDataKey*"]


def test_alarm_topic_refuses_plain_http_and_accepts_only_this_stacks_alarms(
    stack: MemoryStack, resources: Resources, alarms: dict[str, dict[str, Any]]
):
    topic = {"Ref": logical_id(stack.observability.topic)}
    [policy] = [
        r["Properties"]
        for r in resources.values()
        if r["Type"] == "AWS::SNS::TopicPolicy" and r["Properties"]["Topics"] == [topic]
    ]
    statements = policy["PolicyDocument"]["Statement"]
    assert any(
        s["Effect"] == "Deny" and s["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}
        for s in statements
    )
    [publish] = [s for s in statements if s["Effect"] == "Allow"]
    assert publish["Principal"] == {"Service": "cloudwatch.amazonaws.com"}
    assert publish["Action"] == "sns:Publish"
    source = text(publish["Condition"]["ArnLike"]["aws:SourceArn"])
    assert source.endswith(":alarm:AgentMemory-*")
    # The pattern admits every alarm of the stack, so none of them is silently dropped.
    assert all(name.startswith("AgentMemory-") for name in alarms)


def test_alarm_topic_arn_is_an_output(stack: MemoryStack, template: Template):
    outputs = template.to_json()["Outputs"]
    assert outputs["AlarmTopicArn"]["Value"] == {"Ref": logical_id(stack.observability.topic)}


def test_dashboard_shows_each_tiers_retrieval(dashboard: list[Metric]):
    names = {name for namespace, name, _, _ in dashboard if namespace == NAMESPACE}
    for tier in ("Episodic", "Semantic", "Procedural"):
        assert {f"{tier}Hits", f"{tier}Latency"} <= names
    assert {"EpisodicBestScore", "SemanticBestScore", "ProceduralSuccessRate"} <= names
    assert {"EmptyRetrievals", "SemanticFastPathHits"} <= names


def test_dashboard_shows_bootstrap_latency_p50_and_p95(dashboard: list[Metric]):
    stats = {o.get("stat") for _, name, _, o in dashboard if name == "BootstrapLatency"}
    assert stats == {"p50", "p95"}


def test_dashboard_shows_consolidation_pii_ingestion_and_decay(
    stack: MemoryStack, dashboard: list[Metric]
):
    machine = f"<{logical_id(stack.consolidation.state_machine)}>"
    executions = {
        name
        for ns, name, dims, _ in dashboard
        if ns == "AWS/States" and dims == {"StateMachineArn": machine}
    }
    assert {"ExecutionsSucceeded", "ExecutionsFailed", "ExecutionsTimedOut"} <= executions
    names = {name for namespace, name, _, _ in dashboard if namespace == NAMESPACE}
    assert {
        "PiiEntitiesScrubbed",
        "ConsolidationFailures",
        "FactsObserved",
        "FactsConfirmed",
        "FactsContested",
        "ProceduresProposed",
        "ProcedureFeedbackCounted",
        "FactsIngested",
        "FactsAwaitingIngestion",
        "IngestionBusy",
        "IngestionJobsFailed",
        "FailedEpisodesDeleted",
        "PendingFactsExpired",
        "ProceduresFlagged",
    } <= names


def test_dashboard_plots_every_nightly_store_gauge_as_a_daily_maximum(dashboard: list[Metric]):
    # Given the gauges the decay function emits after its pass (failed runs: the DLQ depth)
    emitted = set(gauge_names()) - {"FailedRunsAwaitingReplay"}
    # Then each is plotted once a day, as the latest (maximum) value of that day
    plotted = {
        name: options
        for namespace, name, _, options in dashboard
        if namespace == NAMESPACE and name.startswith("Stored")
    }
    assert set(plotted) == emitted
    for options in plotted.values():
        assert options == {"stat": "Maximum", "period": 86400}


def test_dashboard_shows_dead_letter_depth_and_every_functions_errors(
    stack: MemoryStack, dashboard: list[Metric]
):
    queues = {dims["QueueName"] for ns, _, dims, _ in dashboard if ns == "AWS/SQS"}
    assert queues == {
        f"<{logical_id(stack.storage.failed_runs)}>",
        f"<{logical_id(stack.storage.undelivered_events)}>",
    }
    for metric in ("Errors", "Throttles"):
        watched = {
            d["FunctionName"] for ns, n, d, _ in dashboard if (ns, n) == ("AWS/Lambda", metric)
        }
        assert watched == {f"<{logical_id(f)}>" for f in stack.functions.functions.values()}


def test_dashboard_reads_memory_metrics_where_the_functions_write_them(
    template: Template, dashboard: list[Metric]
):
    # Powertools writes every metric under the function's namespace and service dimension.
    [variables] = {
        json.dumps(
            {
                k: v
                for k, v in f["Properties"]["Environment"]["Variables"].items()
                if k in ("POWERTOOLS_METRICS_NAMESPACE", "POWERTOOLS_SERVICE_NAME")
            }
        )
        for f in template.find_resources("AWS::Lambda::Function").values()
    }
    expected = json.loads(variables)
    custom = [(ns, dims) for ns, _, dims, _ in dashboard if not ns.startswith("AWS/")]
    assert custom
    for namespace, dims in custom:
        assert namespace == expected["POWERTOOLS_METRICS_NAMESPACE"]
        assert dims == {"service": expected["POWERTOOLS_SERVICE_NAME"]}


def test_decay_may_count_the_stores_and_no_request_path_may_scan_them(
    stack: MemoryStack, resources: Resources
):
    # The nightly gauges count every status with a Scan; tenant-scoped functions never may.
    tables = {logical_id(stack.storage.tables[n]) for n in ("episodes", "facts")}
    scanners = {
        name
        for name, role in stack.functions.roles.items()
        for statement in statements_of(resources, logical_id(role))
        if "dynamodb:Scan" in actions(statement) and references(statement["Resource"]) & tables
    }
    assert "decay" in scanners
    assert not scanners & {s.name for s in SPECS if s.tenant_scoped}


# --- ingestion, latency and Comprehend alarms (issue 15) -----------------------------------

SCHEDULES_SOURCE = (
    __import__("pathlib").Path(__file__).resolve().parents[2]
    / "src/agent_memory/serverless/schedules.py"
).read_text()


def _consecutive(alarm: dict[str, Any], statistic: str, threshold: float, periods: int) -> None:
    assert alarm.get("Statistic", alarm.get("ExtendedStatistic")) == statistic
    assert alarm["Threshold"] == threshold
    assert alarm["ComparisonOperator"] == "GreaterThanThreshold"
    assert alarm["EvaluationPeriods"] == periods and alarm["DatapointsToAlarm"] == periods
    assert alarm["Period"] == 300 and alarm["TreatMissingData"] == "notBreaching"


@pytest.mark.parametrize(
    ("metric", "statistic", "threshold", "periods"),
    [
        # Documents a COMPLETE job failed (GetIngestionJob's numberOfDocumentsFailed:
        # https://docs.aws.amazon.com/bedrock/latest/APIReference/API_agent_IngestionJobStatistics.html)
        ("KbDocumentsFailed", "Sum", 0, 1),
        ("FactsIngestionStuck", "Maximum", 0, 1),
        # The backlog stayed above 100 facts in six windows in a row (the schedule's 5 minutes)
        ("FactsAwaitingIngestion", "Minimum", 100, 6),
        # Every window of half an hour found a job running
        ("IngestionBusy", "Minimum", 0, 6),
    ],
)
def test_ingestion_alarms_watch_what_the_ingest_function_emits(
    resources: Resources, metric: str, statistic: str, threshold: float, periods: int
):
    # Given the alarm on the metric
    alarm = _alarm_on(resources, NAMESPACE, metric, "agent-memory")
    # Then it fires on that statistic and threshold, for that many periods
    _consecutive(alarm, statistic, threshold, periods)
    # And the ingest function emits the metric (grep-level; the ingest handler test on moto
    # reads the same names from its EMF output)
    assert f'count("{metric}"' in SCHEDULES_SOURCE
    assert alarm["AlarmActions"] and alarm["OKActions"]


def test_bootstrap_p99_duration_raises_an_alarm(stack: MemoryStack, resources: Resources):
    # Given Lambda's Duration metric of the bootstrap function (emitted by Lambda itself:
    # https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics-types.html)
    function = {"Ref": logical_id(stack.functions["bootstrap"])}
    alarm = _alarm_on(resources, "AWS/Lambda", "Duration", function)
    # Then its p99 above 3 s for 15 minutes is an alarm
    _consecutive(alarm, "p99", 3000, 3)


def test_comprehend_throttling_is_counted_from_the_adapters_log_and_alarmed(
    comprehend_stack: MemoryStack, comprehend_resources: Resources
):
    stack, resources = comprehend_stack, comprehend_resources
    from agent_memory.adapters.aws import comprehend_pii
    from stacks.observability import COMPREHEND_THROTTLED_LOG

    # Given a deployment with piiDetector=comprehend, and the log line the Comprehend adapter
    # writes when a call stays throttled
    assert COMPREHEND_THROTTLED_LOG == comprehend_pii.THROTTLED_LOG
    # Then a metric filter counts it in the log group of every function that scrubs (the
    # review function scrubs a reviewer's name and reason too)
    filters = [
        r["Properties"] for r in resources.values() if r["Type"] == "AWS::Logs::MetricFilter"
    ]
    watched = {references(f["LogGroupName"]).pop() for f in filters}
    scrubbing = [spec.name for spec in SPECS if spec.scrubs_pii]
    assert set(scrubbing) == {"scrub", "bootstrap", "procedure_review"}
    assert watched == {logical_id(stack.functions[n].log_group) for n in scrubbing}
    for f in filters:
        assert COMPREHEND_THROTTLED_LOG in f["FilterPattern"]
        [transform] = f["MetricTransformations"]
        assert (transform["MetricNamespace"], transform["MetricName"]) == (
            NAMESPACE,
            "ComprehendThrottled",
        )
    # And any such line in a period raises the alarm
    [alarm] = [
        a for a in _alarms(resources).values() if a.get("MetricName") == "ComprehendThrottled"
    ]
    _consecutive(alarm, "Sum", 0, 1)


def test_the_default_deployment_has_no_comprehend_alarm_nor_filter(resources: Resources):
    # Given the default deployment (piiDetector=local), which never calls Comprehend
    # Then no metric filter counts its throttling and no alarm watches it
    assert not [r for r in resources.values() if r["Type"] == "AWS::Logs::MetricFilter"]
    assert not [
        a for a in _alarms(resources).values() if a.get("MetricName") == "ComprehendThrottled"
    ]


def test_the_comprehend_adapter_logs_a_call_still_throttled(caplog: pytest.LogCaptureFixture):
    import boto3
    from botocore.stub import Stubber

    from agent_memory.adapters.aws.comprehend_pii import THROTTLED_LOG, ComprehendPiiDetector
    from agent_memory.core.model.errors import TransientError

    # Given Comprehend answering ThrottlingException after botocore's retries
    client = boto3.client(
        "comprehend", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"
    )
    with Stubber(client) as stub:
        stub.add_client_error("detect_pii_entities", "ThrottlingException", "slow", 400)
        # When the adapter detects PII
        with pytest.raises(TransientError):
            ComprehendPiiDetector(client).detect("Ana Lima called")
    # Then it logs the line the stack's metric filter counts
    assert THROTTLED_LOG in caplog.text


def _alarm_metrics(stack_name: str, context: dict[str, Any], outdir: Any) -> set[tuple]:
    app = App(context=context, outdir=str(outdir))
    resources = Template.from_stack(MemoryStack(app, stack_name)).to_json()["Resources"]
    return {
        (a["Namespace"], a["MetricName"], json.dumps(a.get("Dimensions"), sort_keys=True))
        for a in _alarms(resources).values()
        if "Namespace" in a and not a["Namespace"].startswith("AWS/")
    }


def test_two_stacks_in_one_account_alarm_on_their_own_metrics(
    context: dict[str, Any], tmp_path: Any
) -> None:
    # Given two stacks synthesized for the same account and Region
    blue = _alarm_metrics("MemoryBlue", context, tmp_path / "blue")
    green = _alarm_metrics("MemoryGreen", context, tmp_path / "green")
    # Then each alarms on metrics its own functions emit (namespace AgentMemory/<stack>), and
    # no alarm of one watches a metric of the other
    assert blue and {namespace for namespace, _, _ in blue} == {"AgentMemory/MemoryBlue"}
    assert blue & green == set()
