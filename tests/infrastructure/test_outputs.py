from __future__ import annotations

from aws_cdk.assertions import Template

OUTPUTS = {
    "EventBusName",
    "StateMachineArn",
    "BootstrapFunctionName",
    "ProcedureReviewFunctionName",
    "EpisodesFunctionName",
    "EpisodesTableName",
    "FactsTableName",
    "ProceduresTableName",
    "LedgerTableName",
    "KnowledgeBaseId",
    "DataSourceId",
    "DocumentsBucketName",
    "DeadLetterQueueUrl",
    "UndeliveredEventsQueueUrl",
    "TenantRoleArn",
    "AgentPolicyArn",
    "OperatorPolicyArn",
    "AlarmTopicArn",
    "PiiDetector",
}


def test_outputs_name_everything_a_caller_or_operator_needs(template: Template):
    assert set(template.to_json()["Outputs"]) == OUTPUTS
