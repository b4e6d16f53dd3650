"""In a Lambda container the package's own log records (an adapter's ``extra`` fields: the KB
document and Bedrock's reason, a throttled call's code) reach the log as JSON fields, not a bare
message. Source: Lambda's Python runtime writes a record's formatted message with its own text
format (https://docs.aws.amazon.com/lambda/latest/dg/python-logging.html); Powertools'
``copy_config_to_registered_loggers`` gives other loggers its JSON formatter
(https://docs.powertools.aws.dev/lambda/python/latest/core/logger/#reusing-logger-across-your-code).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

CODE = """
import logging
logging.basicConfig(format="%(message)s")  # Lambda's text handler on the root logger
import agent_memory.serverless.observability
from agent_memory.adapters.aws import s3_knowledge_base
s3_knowledge_base.logger.warning(
    "kb document not indexed", extra={"key": "tenants/acme/f1.json", "reason": "too large"}
)
"""


def _logged(environment: dict[str, str]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", CODE], capture_output=True, text=True, env=environment, check=True
    )
    return [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


def test_an_adapters_extra_fields_reach_the_lambda_log_as_json() -> None:
    # Given a Lambda container (its function name set) and an adapter logging a failed document
    environment = {**os.environ, "AWS_LAMBDA_FUNCTION_NAME": "AgentMemory-Ingest"}
    # When the record is written
    [line] = _logged(environment)
    # Then it is one JSON line carrying the document and Bedrock's reason
    record = json.loads(line)
    assert record["message"] == "kb document not indexed"
    assert (record["key"], record["reason"]) == ("tenants/acme/f1.json", "too large")


def test_outside_lambda_the_package_logs_as_the_host_application_configures() -> None:
    # Given no Lambda container, Then the record goes to the host's own handler, untouched
    environment = {k: v for k, v in os.environ.items() if k != "AWS_LAMBDA_FUNCTION_NAME"}
    assert _logged(environment) == ["kb document not indexed"]
