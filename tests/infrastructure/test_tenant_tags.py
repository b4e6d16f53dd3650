r"""The tenant data role's ``tenant_id`` tag: no value it accepts reaches a key or an object of
anyone but exactly that tenant, and what is not a tenant id acts not at all.

Evaluated on the synthesized template, with IAM's string matching as AWS documents it
(``tests/support/iam_strings.py``), over generated tag values. STS admits
``[\p{L}\p{Z}\p{N}_.:/=+\-@]{0,256}`` in a session tag
(https://docs.aws.amazon.com/STS/latest/APIReference/API_Tag.html); the values here also hold
what STS refuses (``*``, ``?``, ``$``, ``#``, ``{``), so the policies hold without STS's help.
The keys tried are those the product writes: a tenant's start ``{tenant_id}#``, the system's
``_{label}#`` (``_decay#progress``, ``_FAILED#0``), which belong to no tenant.
"""

from __future__ import annotations

import json
import re
import string
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
from botocore.stub import ANY, Stubber
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agent_memory.adapters.aws.tenant_credentials import TenantSessions
from agent_memory.core.api.contracts import ID_PATTERN
from agent_memory.core.model.errors import InvalidInput
from agent_memory.wiring.aws_settings import AwsSettings
from stacks.memory_stack import MemoryStack
from tests.support.aws_calls import template_of
from tests.support.iam_check import (
    ACCOUNT,
    Assumed,
    Checker,
    Deployment,
    Request,
    Tables,
    requests_for,
)
from tests.support.iam_strings import parse

REGION = "us-east-1"
TENANT_ROLE = f"arn:aws:iam::{ACCOUNT}:role/tenant-data"
TABLES = {name: f"am-{name}" for name in ("episodes", "facts", "procedures", "ledger")}
BUCKET = "am-kb-docs"
SETTINGS = AwsSettings(
    episodes_table=TABLES["episodes"],
    facts_table=TABLES["facts"],
    procedures_table=TABLES["procedures"],
    ledger_table=TABLES["ledger"],
    kb_bucket=BUCKET,
    knowledge_base_id="KB12345678",
    kb_data_source_id="DS12345678",
    tenant_role_arn=TENANT_ROLE,
    tenant_table_arns=tuple(
        f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{t}" for t in TABLES.values()
    ),
)
DEPLOYMENT = Deployment(SETTINGS, REGION)
SYSTEM_KEYS = ("_decay#progress", "_embedding#active", "_kb-ingestion#current", "_FAILED#0")
ID_CHARACTERS = set(string.ascii_letters + string.digits + "._-")
EMPTY_LOOKING = ("", " ", "\u3000", "\u00a0", "\u2800", "\u3164", "\u200b", "\t", "\u3000acme")

# STS's tag alphabet, plus what it refuses but a policy must not rely on it refusing.
sts_characters = st.characters(categories=("L", "Z", "N")) | st.sampled_from("_.:/=+-@")
hostile_characters = st.sampled_from("*?$#{}\u3000\u00a0\u2800\u3164\u200b ")
tenant_ids = st.from_regex(ID_PATTERN, fullmatch=True)


@st.composite
def near_tenant_ids(draw: st.DrawFn) -> str:
    """A tenant id with a character inserted or put in front (``acm*``, ``acme#x``)."""
    tenant = draw(tenant_ids)
    character = draw(hostile_characters | sts_characters)
    at = draw(st.integers(0, len(tenant)))
    return tenant[:at] + character + tenant[at:]


tag_values = st.one_of(
    st.text(sts_characters | hostile_characters, max_size=260),
    near_tenant_ids(),
    tenant_ids,
    st.sampled_from((*EMPTY_LOOKING, "_decay", "_FAILED", "acm*", "acm?", "acme#x", "${*}")),
)
EVERY_VALUE = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(scope="module")
def checker(stack: MemoryStack, resources: dict[str, dict[str, Any]]) -> Checker:
    return Checker(template_of(stack, resources))


def is_tenant_id(value: str) -> bool:
    return re.fullmatch(ID_PATTERN, value) is not None


def owner(key: str) -> str | None:
    """The tenant a key the product writes belongs to (none for a system key)."""
    head = key.split("#", 1)[0]
    return head if is_tenant_id(head) else None


def tenants_near(value: str) -> set[str]:
    """Tenants a grant for ``value`` might wrongly reach: its prefixes up to a character no id
    holds, it with a character more, it with its wildcards spelled out (``acm*`` -> ``acmxx``),
    and a fixed pair.
    """
    cuts = [i for i in range(1, len(value)) if value[i] not in ID_CHARACTERS]
    found = {value[:i] for i in [1, *cuts, len(value)]}
    found |= {value + "x", value.replace("*", "xx").replace("?", "x"), "acme", "acmex"}
    return {t for t in found if is_tenant_id(t)}


def calls(service: str, operation: str, **params: Any) -> list[Request]:
    """The IAM requests AWS authorizes for one call."""
    return requests_for(service, operation, params, region=REGION, tables=Tables.of(SETTINGS))


def assume(value: str) -> list[Request]:
    return calls("sts", "AssumeRole", RoleArn=TENANT_ROLE, RoleSessionName="am", Tags=[_tag(value)])


def _tag(value: str) -> dict[str, str]:
    return {"Key": "tenant_id", "Value": value}


def trusted(checker: Checker, value: str) -> bool:
    """Whether a tenant-scoped function may assume the role tagged ``value``."""
    return all(checker.verdict("write_episode", r, DEPLOYMENT).allowed for r in assume(value))


def reached(checker: Checker, value: str) -> set[str]:
    """What the role's own policy lets a session tagged ``value`` touch, among the product's
    keys and objects near it: ``key:<pk>``, ``object:<tenant>`` and ``listing:<tenant>``.
    """
    session = Assumed(TENANT_ROLE, None, (("tenant_id", value),))
    tenants = tenants_near(value)
    keys = [*(f"{t}#agent" for t in tenants), *(f"{t}#kb#runs#p" for t in tenants), *SYSTEM_KEYS]
    tries = {
        f"key:{key}": calls(
            "dynamodb", "GetItem", TableName=TABLES["ledger"], Key={"key": {"S": key}}
        )
        for key in keys
    }
    for tenant in [*tenants, "_system"]:
        obj = f"tenants/{tenant}/facts/x.json"
        tries[f"object:{tenant}"] = calls("s3", "GetObject", Bucket=BUCKET, Key=obj)
        prefix = f"tenants/{tenant}/"
        tries[f"listing:{tenant}"] = calls("s3", "ListObjectsV2", Bucket=BUCKET, Prefix=prefix)
    return {
        name
        for name, requests in tries.items()
        if all(checker.verdict("write_episode", r, DEPLOYMENT, session).allowed for r in requests)
    }


def only_its_own(value: str, reach: set[str]) -> bool:
    for name in reach:
        kind, _, what = name.partition(":")
        if (owner(what) if kind == "key" else what) != value:
            return False
    return True


@EVERY_VALUE
@given(value=tag_values)
@example(value="_decay")
@example(value="acm*")
def test_a_tag_the_trust_accepts_reaches_only_that_tenants_keys_and_objects(
    checker: Checker, value: str
) -> None:
    # Given a tag value a tenant-scoped function's AssumeRole carries
    # When the trust accepts it
    if not trusted(checker, value):
        return
    # Then the role's policy lets that session touch keys and objects of that tenant only
    reach = reached(checker, value)
    assert only_its_own(value, reach), (value, sorted(reach))


@EVERY_VALUE
@given(value=tag_values)
@example(value="_decay")
@example(value=" ")
def test_the_role_alone_lets_no_tag_but_a_tenant_id_reach_what_is_stored(
    checker: Checker, value: str
) -> None:
    # Given a session of the tenant role tagged ``value``, however the tag came to be
    # When its own policy is asked for keys and objects near the value (no session policy)
    reach = reached(checker, value)
    # Then a tenant id reaches only its own, and anything else reaches nothing
    if is_tenant_id(value):
        assert reach and only_its_own(value, reach), (value, sorted(reach))
    else:
        assert reach == set(), (value, sorted(reach))


@EVERY_VALUE
@given(value=tag_values)
@example(value="acm*")
@example(value="acme#x")
def test_an_accepted_tag_holds_no_wildcard_nor_separator(checker: Checker, value: str) -> None:
    # Given a tag value the trust accepts (so a substituted "*" reads the same whether IAM
    # takes it for a wildcard or not)
    if not trusted(checker, value):
        return
    # Then it holds none of "*", "?", "$", "#", "/", and it is a tenant id but perhaps for a
    # non-ASCII character after the first, which a policy cannot name
    assert not set(value) & set("*?$#/"), value
    ascii_only = "".join(c for c in value if c.isascii())
    assert is_tenant_id(ascii_only) and len(value) <= 128, value
    assert value[0].isascii(), value


@pytest.mark.parametrize("value", EMPTY_LOOKING, ids=ascii)
def test_empty_looking_tags_are_refused_by_the_trust_and_the_role(
    checker: Checker, value: str
) -> None:
    # Given an empty, blank or invisible tag value (STS admits the spaces and U+3164)
    # Then the trust refuses it and the role's own policy lets it touch nothing
    assert not trusted(checker, value)
    assert reached(checker, value) == set()


@settings(max_examples=200, deadline=None)
@given(tenant=tenant_ids)
def test_every_tenant_id_is_trusted_and_reaches_its_own_keys(checker: Checker, tenant: str) -> None:
    # Given any tenant id the product admits, up to 128 characters
    # Then the trust accepts it and the role reaches its keys, objects and listing
    assert trusted(checker, tenant)
    reach = reached(checker, tenant)
    assert {f"key:{tenant}#agent", f"object:{tenant}", f"listing:{tenant}"} <= reach


@settings(max_examples=200, deadline=None)
@given(value=tag_values)
def test_code_sends_only_tags_the_trust_accepts(checker: Checker, value: str) -> None:
    # Given the runtime's tenant sessions, over an STS stub that records what it is asked
    with Stubber(boto3.client("sts", region_name=REGION)) as stub:
        sessions = TenantSessions(
            TENANT_ROLE, table_arns=SETTINGS.tenant_table_arns, bucket=BUCKET, sts=stub.client
        )
        expiry = datetime(2099, 1, 1, tzinfo=UTC)
        credentials = {"AccessKeyId": "AKIA" + "0" * 16, "SecretAccessKey": "s" * 40}
        response = {"Credentials": {**credentials, "SessionToken": "t", "Expiration": expiry}}
        expected = {"RoleArn": TENANT_ROLE, "Tags": [_tag(value)]}
        if is_tenant_id(value):
            stub.add_response("assume_role", response, _partial(expected))
        # When a handler asks for the tenant's credentials
        try:
            sessions.credentials(value)
        except InvalidInput:
            # Then a value that is not a tenant id never reaches STS (no response queued)
            assert not is_tenant_id(value)
            return
    # ... and the one it sends is one the trust accepts
    assert trusted(checker, value)


def _partial(expected: dict[str, Any]) -> dict[str, Any]:
    """Stubber's expected params: ``expected`` exactly, any value for the rest."""
    return {
        **{k: ANY for k in ("RoleSessionName", "Policy", "DurationSeconds")},
        **expected,
    }


def test_the_trust_policy_fits_iams_quota_with_the_longest_role_arns(
    stack: MemoryStack, resources: dict[str, dict[str, Any]]
) -> None:
    # IAM: a role trust policy is at most 2,048 characters by default (adjustable to 4,096).
    # https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html
    # Given the trust as deployed, every trusted role's ARN at its longest (CloudFormation's
    # generated role names are at most 64 characters; the supported Regions are all "aws")
    role = resources[template_of(stack, resources).ids.tenant_role]
    document = role["Properties"]["AssumeRolePolicyDocument"]
    arn = f"arn:aws:iam::{ACCOUNT}:role/{'r' * 64}"
    text = json.dumps(document, separators=(",", ":"))
    text = re.sub(r'\{"Fn::GetAtt":\["[A-Za-z0-9]+","Arn"\]\}', json.dumps(arn), text)
    assert "Fn::" not in text
    # Then it fits, with room for two more tenant-scoped functions (nine trust it now)
    assert len(text) <= 2048 - 2 * len(f'"{arn}",')


def test_the_models_substitution_readings_differ_only_for_wildcard_values() -> None:
    # Given the role's key pattern, and a tag holding a "*"
    pattern = "${aws:PrincipalTag/tenant_id}#*"
    tags = {"aws:PrincipalTag/tenant_id": "acm*"}
    # Then whether a substituted "*" is a wildcard decides if it reaches "acme#x" (which is
    # why an accepted tag must hold none), and IAM's ${*} is always the character itself
    live, literal = (parse(pattern, tags, live_values=v) for v in (True, False))
    assert live is not None and live.like("acme#x")
    assert literal is not None and not literal.like("acme#x") and literal.like("acm*#x")
    special = parse("*${*}*", {}, live_values=True)
    assert special is not None and special.like("a*b") and not special.like("ab")
