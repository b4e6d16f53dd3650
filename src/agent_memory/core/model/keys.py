"""The tenant key scheme: how every stored key names its tenant, written once.

Identifiers (``identifiers.ID_PATTERN``) never hold ``#``, ``/``, ``~`` or whitespace, so:

- a record's partition key is ``{tenant}#{part}``, and everything a tenant owns starts with
  ``{tenant}#`` (:func:`tenant_prefix`): DynamoDB's ``dynamodb:LeadingKeys`` condition keeps a
  tenant's session to it, and a tenant's records are one key range in every store. A part that
  holds the separator is refused (tenant ``a#b`` with agent ``c`` would otherwise share a key
  with tenant ``a`` and agent ``b#c``); system records start with ``_``, which no tenant can;
- a tenant's knowledge-base documents live under ``tenants/{tenant}/`` (:func:`tenant_folder`),
  the prefix the tenant's S3 session is held to, at ``tenants/{t}/domains/{d}/{key}.txt``;
- a run is named within its tenant by ``{agent}/{run}`` (:func:`run_name`), and facts and
  procedures count it by its :func:`run_marker`.

The stores, the knowledge bases, the tenant boundary's IAM conditions (the adapter's session
policy and the CDK stack's role) all build their keys here.
"""

from __future__ import annotations

import hashlib

from agent_memory.core.model.errors import InvalidInput

KEY_SEPARATOR = "#"
# The knowledge-base bucket's folder of tenants.
TENANTS_FOLDER = "tenants/"
DOCUMENT_SUFFIX = ".txt"
# The longest run id (``identifiers.ID_PATTERN``): a run marker is never longer.
MAX_MARKER_CHARS = 128
_MARKER_AGENT_CHARS = 40


def check_component(field: str, value: str) -> None:
    """Refuse a key component holding the separator (``InvalidInput`` naming ``field``)."""
    if KEY_SEPARATOR in value:
        raise InvalidInput(field, f"must not contain {KEY_SEPARATOR!r}")


def check_tenant(tenant_id: str) -> None:
    """Refuse a tenant id no key could be built from."""
    check_component("tenant_id", tenant_id)


def partition_key(tenant_id: str, part: str) -> str:
    """``{tenant_id}#{part}``; ``InvalidInput`` if either holds the separator."""
    check_component("tenant_id", tenant_id)
    check_component("key", part)
    return f"{tenant_id}{KEY_SEPARATOR}{part}"


def tenant_prefix(tenant_id: str) -> str:
    """``{tenant_id}#``: the start of every key the tenant owns."""
    check_component("tenant_id", tenant_id)
    return f"{tenant_id}{KEY_SEPARATOR}"


def tenant_of(key: str) -> str:
    """The tenant a key belongs to."""
    return key.split(KEY_SEPARATOR, 1)[0]


def tenant_folder(tenant: str) -> str:
    """The tenant's folder of the knowledge-base bucket, ``tenants/{tenant}/`` (``tenant`` may
    be an IAM policy variable: the stack writes its role's grants with it).
    """
    return f"{TENANTS_FOLDER}{tenant}/"


def document_key(tenant_id: str, domain: str, key: str) -> str:
    """Where a promoted fact lives in the knowledge base."""
    return f"{tenant_folder(tenant_id)}domains/{domain}/{key}{DOCUMENT_SUFFIX}"


def run_name(agent_id: str, run_id: str) -> str:
    """A run's name within its tenant, ``agent/run`` (identifiers never hold ``/``)."""
    return f"{agent_id}/{run_id}"


def run_marker(agent_id: str, run_id: str) -> str:
    """What facts and procedures log and count a run by: its :func:`run_name`, or, for a name
    longer than a run id may be, a shortened name and a digest of the whole (``~`` is in no
    identifier). Stores size their items for run ids, so a marker is never longer.
    """
    name = run_name(agent_id, run_id)
    if len(name) <= MAX_MARKER_CHARS:
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:32]
    return f"{agent_id[:_MARKER_AGENT_CHARS]}/{run_id[:40]}~{digest}"


def marks_agent(marker: str, agent_id: str) -> bool:
    """Whether a run marker certainly names one of ``agent_id``'s runs. A digest marker keeps
    its agent's first 40 characters only: it is the agent's when the agent's id is shorter
    than that (a longer id's digest markers are found by the runs they name instead).
    """
    agent, slash, _ = marker.partition("/")
    if "~" not in marker:
        return bool(slash) and agent == agent_id
    return agent == agent_id and len(agent_id) < _MARKER_AGENT_CHARS


def parse_run_marker(marker: str) -> tuple[str | None, str]:
    """(agent_id, run_id) of a run marker or name; a digest marker has no agent (it is its own
    run id here).
    """
    agent_id, slash, run_id = marker.rpartition("/")
    return (agent_id, run_id) if slash and "~" not in marker else (None, marker)
