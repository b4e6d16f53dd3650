"""Principal-tag tenancy (``-c tenantIdentity=principal-tag``): the tenant is the caller's tag.

A caller's IAM role (or user) carries a ``tenant_id`` tag. The bus refuses a RunFinished whose
``source`` is not ``agent-memory.tenant.<that tag>``, and a caller without the tag; extract
checks the source again. Bootstrap and the episodes function read the tag of whoever signed
the request's identity proof (``iam:ListRoleTags``), so a payload naming another tenant is
refused.
"""

from __future__ import annotations

from aws_cdk import Aws, Stack
from aws_cdk import aws_events as events
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from agent_memory.core.model.tenant_identity import TENANT_SOURCE_PREFIX, TENANT_TAG, TenantIdentity
from stacks.nag import acknowledge, resource_findings

CALLER_TAG = f"aws:PrincipalTag/{TENANT_TAG}"


class CallerTenancy(Construct):
    """The bus policy, the environment and the tag-reading grant of principal-tag tenancy."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        bus: events.EventBus,
        bootstrap: lambda_.Function,
        extract: lambda_.Function,
        episodes: lambda_.Function,
    ) -> None:
        super().__init__(scope, construct_id)
        for function in (bootstrap, extract, episodes):
            function.add_environment("TENANT_IDENTITY", TenantIdentity.PRINCIPAL_TAG.value)
        for function in (bootstrap, episodes):
            function.add_environment("CALLER_ACCOUNT", Aws.ACCOUNT_ID)
            self._grant_tag_reads(function)
        self._restrict_bus(bus)

    def _grant_tag_reads(self, function: lambda_.Function) -> None:
        stack = Stack.of(self)
        role = function.role
        if role is None:
            raise ValueError(f"{function.node.id} has no role to grant iam:ListRoleTags to")
        callers = [
            stack.format_arn(service="iam", region="", resource="role", resource_name="*"),
            stack.format_arn(service="iam", region="", resource="user", resource_name="*"),
        ]
        role.add_to_principal_policy(
            iam.PolicyStatement(actions=["iam:ListRoleTags", "iam:ListUserTags"], resources=callers)
        )
        acknowledge(
            role,
            "IAM5",
            "Any caller's role or user may be tagged for a tenant: the function reads the tags "
            "of the one whose signed proof it received, and nothing else of IAM.",
            findings=resource_findings(role, *callers),
        )

    def _restrict_bus(self, bus: events.EventBus) -> None:
        # Deny wins over any identity policy that grants events:PutEvents on the bus.
        denies = {
            "UntaggedCallersPutNoRuns": {"Null": {CALLER_TAG: "true"}},
            # events:source is multivalued (one value per entry of a batched PutEvents): deny
            # when any entry's source is not the caller's tenant's. A single-valued operator
            # on a multivalued key is ambiguous (IAM: "Single-valued vs. multivalued context
            # keys", https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-single-vs-multi-valued-context-keys.html).
            "RunsComeFromTheirTenantOnly": {
                "ForAnyValue:StringNotEquals": {
                    "events:source": f"{TENANT_SOURCE_PREFIX}${{{CALLER_TAG}}}"
                }
            },
        }
        for sid, condition in denies.items():
            bus.add_to_resource_policy(
                iam.PolicyStatement(
                    sid=sid,
                    effect=iam.Effect.DENY,
                    principals=[iam.AnyPrincipal()],
                    actions=["events:PutEvents"],
                    resources=[bus.event_bus_arn],
                    conditions=condition,
                )
            )
