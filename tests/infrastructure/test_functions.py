from __future__ import annotations

import json

from aws_cdk.assertions import Template

from stacks.consolidation import DEFINITION, substitution_name
from stacks.functions import SPECS
from stacks.memory_stack import MemoryStack
from stacks.runtime import PYTHON_VERSION
from tests.infrastructure.helpers import Resources, invoked_functions, logical_id

HANDLERS = {
    "bootstrap",
    "extract",
    "scrub",
    "write_episode",
    "confirm_facts",
    "stage_kb_docs",
    "propose_procedure",
    "record_failure",
    "ingest",
    "decay",
    "procedure_review",
    "episodes",
    "reembed",
}
SETTINGS = {
    "EPISODES_TABLE",
    "FACTS_TABLE",
    "PROCEDURES_TABLE",
    "LEDGER_TABLE",
    "KB_BUCKET",
    "KNOWLEDGE_BASE_ID",
    "KB_DATA_SOURCE_ID",
    "EMBEDDING_MODEL_ID",
    "POWERTOOLS_SERVICE_NAME",
    "POWERTOOLS_METRICS_NAMESPACE",
    "POWERTOOLS_LOG_LEVEL",
}


def _function(stack: MemoryStack, resources: Resources, name: str) -> dict:
    return resources[logical_id(stack.functions[name])]["Properties"]


def test_there_is_one_function_per_handler(stack: MemoryStack, template: Template):
    assert set(stack.functions.functions) == HANDLERS
    template.resource_count_is("AWS::Lambda::Function", len(HANDLERS))


def test_every_function_runs_arm64_python_with_tracing_and_the_layer(template: Template):
    layer_id = next(iter(template.find_resources("AWS::Lambda::LayerVersion")))
    for function in template.find_resources("AWS::Lambda::Function").values():
        props = function["Properties"]
        assert props["Architectures"] == ["arm64"]
        assert props["Runtime"] == f"python{PYTHON_VERSION}"
        assert props["Handler"] == "handler.handler"
        assert props["TracingConfig"] == {"Mode": "Active"}
        assert props["Layers"] == [{"Ref": layer_id}]


def test_layer_is_built_for_the_functions_runtime_and_architecture(template: Template):
    template.has_resource_properties(
        "AWS::Lambda::LayerVersion",
        {
            "CompatibleRuntimes": [f"python{PYTHON_VERSION}"],
            "CompatibleArchitectures": ["arm64"],
        },
    )


def test_every_function_is_told_where_memory_lives(template: Template):
    for function in template.find_resources("AWS::Lambda::Function").values():
        variables = function["Properties"]["Environment"]["Variables"]
        assert variables.keys() >= SETTINGS
        assert variables["EMBEDDING_MODEL_ID"] == "amazon.titan-embed-text-v2:0"
        assert variables["POWERTOOLS_SERVICE_NAME"] == "agent-memory"
        assert variables["POWERTOOLS_METRICS_NAMESPACE"] == "AgentMemory/AgentMemory"


def test_only_extract_knows_the_chat_model_and_none_is_the_default(
    stack: MemoryStack, resources: Resources
):
    for name in HANDLERS:
        variables = _function(stack, resources, name)["Environment"]["Variables"]
        assert ("CHAT_MODEL_ID" in variables) == (name == "extract")
    assert _function(stack, resources, "extract")["Environment"]["Variables"]["CHAT_MODEL_ID"] == ""


def test_the_functions_that_scrub_or_check_receipts_are_told_where_the_secret_is(
    stack: MemoryStack, resources: Resources
):
    secret = {"Ref": logical_id(stack.functions.pseudonym_key)}
    keyed = {"scrub", "bootstrap", "propose_procedure", "procedure_review"}
    for name in HANDLERS:
        variables = _function(stack, resources, name)["Environment"]["Variables"]
        assert (variables.get("PSEUDONYM_SECRET_ARN") == secret) == (name in keyed), name


def test_tenant_scoped_functions_are_given_the_tenant_role(
    stack: MemoryStack, resources: Resources
):
    role = {"Fn::GetAtt": [logical_id(stack.functions.tenant_data.role), "Arn"]}
    for spec in SPECS:
        variables = _function(stack, resources, spec.name)["Environment"]["Variables"]
        assert (variables.get("TENANT_ROLE_ARN") == role) == spec.tenant_scoped


def test_consolidation_steps_time_out_before_their_task_does(
    stack: MemoryStack, resources: Resources
):
    by_placeholder = {f"${{{substitution_name(name)}}}": name for name in HANDLERS}
    tasks = invoked_functions(json.loads(DEFINITION.read_text())["States"])
    assert tasks
    for placeholder, task in tasks.items():
        name = by_placeholder[placeholder]
        timeout = _function(stack, resources, name)["Timeout"]
        assert timeout < task.get("TimeoutSeconds", 900), name


def test_bootstrap_answers_quickly(stack: MemoryStack, resources: Resources):
    assert _function(stack, resources, "bootstrap")["Timeout"] <= 15


def test_responses_stay_out_of_traces(template: Template):
    for function in template.find_resources("AWS::Lambda::Function").values():
        variables = function["Properties"]["Environment"]["Variables"]
        assert variables["POWERTOOLS_TRACER_CAPTURE_RESPONSE"] == "false"
