"""The agent-memory stack: composes the constructs and names what callers need as outputs."""

from __future__ import annotations

from typing import Any

from aws_cdk import CfnOutput, Stack
from constructs import Construct

from agent_memory.core.model.tenant_identity import TenantIdentity
from agent_memory.wiring.detectors import PiiDetectorChoice
from stacks.agent_access import AgentAccess
from stacks.caller_tenancy import CallerTenancy
from stacks.config import MemoryConfig
from stacks.consolidation import Consolidation
from stacks.functions import Functions
from stacks.knowledge_base import KnowledgeBase
from stacks.observability import Observability
from stacks.operator_access import OperatorAccess
from stacks.regions import require_supported_region
from stacks.schedules import Schedules
from stacks.storage import KB_PREFIX, Storage


class MemoryStack(Stack):
    """Storage, knowledge base, functions, consolidation, schedules and observability; settings
    from context.
    """

    def __init__(self, scope: Construct, construct_id: str, **kwargs: Any) -> None:
        super().__init__(scope, construct_id, **kwargs)
        config = MemoryConfig.from_context(self.node)
        comprehend = config.pii_detector is PiiDetectorChoice.COMPREHEND
        require_supported_region(self, comprehend=comprehend)
        self.pii_detector = config.pii_detector
        self.storage = Storage(self, "Storage")
        self.knowledge_base = KnowledgeBase(
            self, "KnowledgeBase", documents=self.storage.documents, prefix=KB_PREFIX
        )
        self.functions = Functions(
            self,
            "Functions",
            config=config,
            storage=self.storage,
            knowledge_base=self.knowledge_base,
        )
        self.consolidation = Consolidation(
            self,
            "Consolidation",
            functions=self.functions.functions,
            failed_runs=self.storage.failed_runs,
            undelivered_events=self.storage.undelivered_events,
            with_source=config.tenant_identity is TenantIdentity.PRINCIPAL_TAG,
        )
        if config.tenant_identity is TenantIdentity.PRINCIPAL_TAG:
            CallerTenancy(
                self,
                "CallerTenancy",
                bus=self.consolidation.bus,
                bootstrap=self.functions["bootstrap"],
                extract=self.functions["extract"],
                episodes=self.functions["episodes"],
            )
        self.agent_access = AgentAccess(
            self,
            "AgentAccess",
            bus=self.consolidation.bus,
            bootstrap=self.functions["bootstrap"],
            episodes=self.functions["episodes"],
        )
        self.operator_access = OperatorAccess(
            self,
            "OperatorAccess",
            tables=self.storage.tables,
            documents=self.storage.documents,
            documents_prefix=KB_PREFIX,
            knowledge_base_arn=self.knowledge_base.knowledge_base.attr_knowledge_base_arn,
            state_machine=self.consolidation.state_machine,
            dead_letters=self.storage.failed_runs,
            scrubs_with_comprehend=comprehend,
        )
        self.schedules = Schedules(
            self, "Schedules", decay=self.functions["decay"], ingest=self.functions["ingest"]
        )
        self.observability = Observability(
            self,
            "Observability",
            functions=self.functions.functions,
            state_machine=self.consolidation.state_machine,
            failed_runs_queue=self.storage.failed_runs,
            undelivered_queue=self.storage.undelivered_events,
            comprehend=comprehend,
            dashboard=config.dashboard,
        )
        self._build_outputs()

    def _build_outputs(self) -> None:
        outputs = {
            "EventBusName": self.consolidation.bus.event_bus_name,
            "StateMachineArn": self.consolidation.state_machine.state_machine_arn,
            "BootstrapFunctionName": self.functions["bootstrap"].function_name,
            "ProcedureReviewFunctionName": self.functions["procedure_review"].function_name,
            "EpisodesFunctionName": self.functions["episodes"].function_name,
            "KnowledgeBaseId": self.knowledge_base.knowledge_base_id,
            "DataSourceId": self.knowledge_base.data_source_id,
            "DocumentsBucketName": self.storage.documents.bucket_name,
            "DeadLetterQueueUrl": self.storage.failed_runs.queue_url,
            "UndeliveredEventsQueueUrl": self.storage.undelivered_events.queue_url,
            "TenantRoleArn": self.functions.tenant_data.role.role_arn,
            "AgentPolicyArn": self.agent_access.policy.managed_policy_arn,
            "OperatorPolicyArn": self.operator_access.policy.managed_policy_arn,
            "AlarmTopicArn": self.observability.topic.topic_arn,
            # The operator CLI and SDK scrub with the deployment's detectors.
            "PiiDetector": self.pii_detector.value,
        }
        if self.observability.dashboard is not None:
            outputs["DashboardName"] = self.observability.dashboard.dashboard_name
        for name, table in self.storage.tables.items():
            outputs[f"{name.title()}TableName"] = table.table_name
        for output_id, value in outputs.items():
            CfnOutput(self, output_id, value=value)
