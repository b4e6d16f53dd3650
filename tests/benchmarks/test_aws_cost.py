"""The AWS cost model: its units follow each service's billing rules, and it runs offline.

Rules from the pricing pages and developer guides named in ``benchmarks/aws_metering.py``:
DynamoDB request units
(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html,
indexes: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations),
Comprehend units (https://aws.amazon.com/comprehend/pricing/), S3 request tiers
(https://aws.amazon.com/s3/pricing/), Lambda CPU by memory
(https://docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from benchmarks.aws_cost_model import FULL_VCPU_MB, billed_seconds
from benchmarks.aws_metering import ApiCall, Invocation, Meter, units_of
from benchmarks.aws_prices import CHAT_MODELS, PRICES, Price

ROOT = Path(__file__).parents[2]
REGION = "us-east-1"


@pytest.fixture
def table() -> Iterator[Any]:
    """A moto table keyed pk/sk with two indexes: one projecting ALL, one KEYS_ONLY."""
    with mock_aws():
        client = boto3.client("dynamodb", region_name=REGION)
        client.create_table(
            TableName="t",
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[
                {"AttributeName": a, "AttributeType": "S"} for a in ("pk", "sk", "g1", "g2")
            ],
            KeySchema=[
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
            ],
            GlobalSecondaryIndexes=[
                {
                    "IndexName": "all",
                    "KeySchema": [{"AttributeName": "g1", "KeyType": "HASH"}],
                    "Projection": {"ProjectionType": "ALL"},
                },
                {
                    "IndexName": "keys",
                    "KeySchema": [{"AttributeName": "g2", "KeyType": "HASH"}],
                    "Projection": {"ProjectionType": "KEYS_ONLY"},
                },
            ],
        )
        yield client


def item(size: int, **extra: str) -> dict[str, Any]:
    """An item of about ``size`` bytes (its ``body`` attribute), with ``extra`` attributes."""
    return {
        "pk": {"S": "p"},
        "sk": {"S": "s"},
        "body": {"S": "x" * (size - 10)},
        **{k: {"S": v} for k, v in extra.items()},
    }


def test_a_write_costs_a_unit_per_kb_and_each_index_it_lands_in_its_own(table: Any) -> None:
    meter = Meter()
    with meter.recording():
        # Given a 1.5 KB item in no index
        table.put_item(TableName="t", Item=item(1500))
        # When it is rewritten into the ALL index, then its index key moves, then it is deleted
        table.put_item(TableName="t", Item=item(1500, g1="a"))
        table.put_item(TableName="t", Item=item(1500, g1="b"))
        table.delete_item(TableName="t", Key={"pk": {"S": "p"}, "sk": {"S": "s"}})
    # Then each write costs 2 units, plus 2 for the index put, 4 for its delete and put, and
    # 2 for the index delete
    assert [c.write_units for c in meter.calls] == [2, 4, 6, 4]


def test_a_keys_only_index_costs_a_unit_and_a_transaction_doubles(table: Any) -> None:
    meter = Meter()
    with meter.recording():
        # When a 1.5 KB item lands in the KEYS_ONLY index, in a transaction
        table.transact_write_items(
            TransactItems=[{"Put": {"TableName": "t", "Item": item(1500, g2="k")}}]
        )
    # Then the table write (2 units) and the index's keys (1 unit) are each counted twice
    assert meter.calls[0].write_units == 2 * (2 + 1)


def test_reads_cost_a_unit_per_4_kb_halved_when_eventually_consistent(table: Any) -> None:
    # Given a 5 KB item
    table.put_item(TableName="t", Item=item(5000))
    meter = Meter()
    key = {"pk": {"S": "p"}, "sk": {"S": "s"}}
    with meter.recording():
        # When it is read both ways, and queried
        table.get_item(TableName="t", Key=key)
        table.get_item(TableName="t", Key=key, ConsistentRead=True)
        table.query(
            TableName="t",
            KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": "p"}},
        )
    # Then 2 units of 4 KB: 1.0 eventually consistent, 2 strongly, 1.0 for the query
    assert [c.read_units for c in meter.calls] == [1.0, 2.0, 1.0]


def test_a_query_sums_its_items_before_rounding(table: Any) -> None:
    # Given three items of about 1 KB under one partition key
    for sk in "abc":
        table.put_item(TableName="t", Item={**item(1000), "sk": {"S": sk}})
    meter = Meter()
    with meter.recording():
        # When they are queried with a strongly consistent read
        table.query(
            TableName="t",
            KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": "p"}},
            ConsistentRead=True,
        )
    # Then 3 KB round up once: one unit, not three
    assert meter.calls[0].read_units == 1.0


def test_a_read_is_billed_for_whole_items_whatever_it_projects_or_filters(table: Any) -> None:
    # Given three 3 KB items, one of them in the KEYS_ONLY index
    for sk in "abc":
        extra = {"g2": "k"} if sk == "a" else {}
        table.put_item(TableName="t", Item={**item(3000, **extra), "sk": {"S": sk}})
    meter = Meter()
    values = {":p": {"S": "p"}, ":k": {"S": "k"}, ":none": {"S": "none"}}
    with meter.recording():
        # When one is read for a projection, all are queried through a filter that keeps
        # none, and the index is queried
        table.get_item(
            TableName="t", Key={"pk": {"S": "p"}, "sk": {"S": "a"}}, ProjectionExpression="pk"
        )
        table.query(
            TableName="t",
            KeyConditionExpression="pk = :p",
            FilterExpression="body = :none",
            ExpressionAttributeValues={k: values[k] for k in (":p", ":none")},
            ConsistentRead=True,
        )
        table.query(
            TableName="t",
            IndexName="keys",
            KeyConditionExpression="g2 = :k",
            ExpressionAttributeValues={":k": values[":k"]},
        )
    # Then the projection and the filter save nothing (9 KB read: 3 units), and the index
    # read is of its keys only (half a unit, eventually consistent)
    assert [c.read_units for c in meter.calls] == [0.5, 3.0, 0.5]


def call(service: str, operation: str, **params: Any) -> ApiCall:
    return ApiCall(service, operation, params, "scrub", 0.0)


@pytest.mark.parametrize(("chars", "expected"), [(1, 3), (300, 3), (301, 4), (3_930, 40)])
def test_comprehend_bills_100_characters_a_unit_at_least_three(chars: int, expected: int) -> None:
    # When a text of ``chars`` characters is sent to DetectPiiEntities
    used = units_of(call("comprehend", "DetectPiiEntities", Text="x" * chars, LanguageCode="en"))
    # Then it is billed as that many units
    assert used["comprehend.pii_units"] == expected


def test_s3_requests_fall_in_their_tiers_and_deletes_are_free() -> None:
    operations = ("PutObject", "CopyObject", "ListObjectsV2", "GetObject", "HeadObject")
    used: Counter[str] = Counter()
    for op in (*operations, "DeleteObject"):
        used.update(units_of(call("s3", op, Bucket="b", Key="k")))
    assert (used["s3.tier1_requests"], used["s3.tier2_requests"]) == (3, 2)


def test_titan_is_billed_by_the_tokens_of_its_input() -> None:
    body = json.dumps({"inputText": "x" * 470})
    used = units_of(call("bedrock-runtime", "InvokeModel", body=body))
    assert used["bedrock.titan_embed_v2"] == 100


def test_lambda_time_scales_with_the_cpu_its_memory_buys() -> None:
    # Given an invocation of 0.2 s of its own work and two DynamoDB calls
    calls = [call("dynamodb", "GetItem"), call("dynamodb", "PutItem")]
    invocation = Invocation("scrub", 0.25, 0.05, 0, 0, frozenset(), calls)
    # Then at a full vCPU its own work is billed as measured, at half of one twice as long;
    # each call adds its assumed time on AWS either way
    full, half = billed_seconds(invocation, FULL_VCPU_MB), billed_seconds(invocation, 884)
    assert full == pytest.approx(0.212) and half == pytest.approx(0.4122, abs=0.002)


def test_every_price_is_dated_and_sourced() -> None:
    for price in [*PRICES.values(), *CHAT_MODELS]:
        assert price.source.startswith("https://aws.amazon.com/")
    assert Price(0.25, 1_000, "events", "https://aws.amazon.com/").of(40) == pytest.approx(0.01)


def printed_command() -> list[str]:
    """The cost benchmark's command as docs/aws.md prints it."""
    text = (ROOT / "docs" / "aws.md").read_text()
    [line] = [x for x in text.splitlines() if x.startswith(".venv/bin/python benchmarks/aws_cost")]
    return shlex.split(line.split("#", 1)[0])


def test_the_benchmark_runs_offline_and_writes_its_tables(tmp_path: Path) -> None:
    # Given the command docs/aws.md prints, writing elsewhere than the committed results
    command = printed_command()
    assert command[1:] == ["benchmarks/aws_cost.py", "--out", "benchmarks/results/aws_cost.json"]
    out = tmp_path / "aws_cost.json"
    # When it runs in its quick mode (one run of each size)
    subprocess.run(
        [sys.executable, command[1], "--out", str(out), "--quick"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=600,
    )
    result = json.loads(out.read_text())
    default, comprehend = (result["configurations"][k] for k in ("local", "comprehend"))
    # Then every scenario was priced, from units it counted
    for config in (default, comprehend):
        for run in config["runs"].values():
            assert run["usd"] > 0 and run["units"]["dynamodb.write_units"] > 0
            assert run["units"]["sfn.standard_transitions"] >= 6
        assert config["bootstrap"]["cold"]["usd"] > config["bootstrap"]["warm"]["usd"] > 0
    # And only the Comprehend configuration sends text to Comprehend, and pays for it
    assert "comprehend.pii_units" not in default["runs"]["typical"]["units"]
    assert comprehend["runs"]["typical"]["units"]["comprehend.pii_units"] >= 3
    assert not default["stack"]["comprehend_granted"] and comprehend["stack"]["comprehend_granted"]
    # And the report names the targets, AgentCore's prices and every setting's cost
    report = out.with_suffix(".md").read_text()
    for heading in ("Per run, beside AgentCore Memory", "A month", "What each setting costs"):
        assert f"## {heading}" in report
    assert {row["setting"] for row in result["choices"]} >= {
        "piiDetector",
        "workflow type",
        "chatModelId",
        "logLevel",
        "log retention",
        "tracing",
    } - ({"logLevel"} if result["quick"] else set())
