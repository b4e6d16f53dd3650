"""Agents flag, people decide: an agent's report that served memory is wrong, and its closing.

A flag takes effect for its agent at once (each read of the agent reads its open flags:
:func:`flagged_by`) and waits for a person, who dismisses it (the agent is served the item again)
or closes it as acted on. Both the flag and its closing are recorded in the tenant's history,
their texts scrubbed as stored text is (:func:`~agent_memory.core.workflows.history.scrubbed`).
"""

from __future__ import annotations

from agent_memory.core.model.decisions import MAX_REASON, Action
from agent_memory.core.model.errors import Conflict, InvalidInput, NotFound
from agent_memory.core.model.flags import (
    MAX_OPEN_FLAGS_PER_AGENT,
    Flag,
    Flagged,
    FlagOutcome,
    flag_kind,
    parse_flag_id,
    record_id,
)
from agent_memory.core.model.identifiers import checked_id
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.workflows.history import record_decision, scrubbed


def agent_actor(agent_id: str) -> str:
    """How the history names an agent that decided: ``agent:{agent_id}``."""
    return f"agent:{agent_id}"


def flag_memory(
    ports: MemoryPorts,
    tenant_id: str,
    agent_id: str,
    kind: str,
    record: str,
    reason: str,
    run_id: str | None = None,
) -> Flag:
    """Keep the agent's flag on a served item (``kind``: episode, fact or procedure; ``record``:
    its run id, ``{agent}/{run}`` for another agent's episode, its fact hash or procedure id)
    and record it in the history; the flag open on the item.

    Flagging an item the agent has flagged already hands back that flag and records nothing.
    An agent holding :data:`MAX_OPEN_FLAGS_PER_AGENT` open flags is refused (``Conflict``)
    until a person closes some; concurrent flags of one agent may pass it by their number.
    """
    checked_id(agent_id, "agent_id", "agent id")
    if run_id is not None:
        checked_id(run_id, "run_id", "run id")
    flagged_kind = flag_kind(kind)
    item = record_id(flagged_kind, record, agent_id)
    if not reason.strip():
        raise InvalidInput("reason", "is required: why the item is wrong")
    actor, why = scrubbed(ports, tenant_id, agent_actor(agent_id), reason)
    flag = Flag(tenant_id, agent_id, flagged_kind, item, why or "", ports.clock(), run_id)
    held = ports.flags.of_agent(tenant_id, agent_id, limit=MAX_OPEN_FLAGS_PER_AGENT)
    for open_flag in held:
        if open_flag.flag_id == flag.flag_id:
            return open_flag
    if len(held) >= MAX_OPEN_FLAGS_PER_AGENT:
        raise Conflict(
            f"agent {agent_id!r} holds {MAX_OPEN_FLAGS_PER_AGENT} open flags, the most it may: "
            "nothing more is flagged until a person closes some (agent-memory flags list)"
        )
    if not ports.flags.add(flag):
        # Flagged meanwhile (or read before the listing showed it): that flag is the one open.
        return ports.flags.get(tenant_id, flag.flag_id) or flag
    record_decision(
        ports,
        tenant_id,
        Action.FLAG,
        flagged_kind.record_kind,
        item,
        actor,
        reason=why,
    )
    return flag


def close_flag(
    ports: MemoryPorts,
    tenant_id: str,
    flag: str,
    actor: str,
    reason: str | None,
    outcome: FlagOutcome = FlagOutcome.DISMISSED,
) -> Flag:
    """A person closes an open flag: ``dismissed`` (the item was right, its agent is served it
    again) or ``acted`` (the item was dealt with by another operation); recorded in the history
    as DISMISS or RESOLVE of the item, naming the flag's agent. The flag closed; ``NotFound`` if
    none of that id is open.
    """
    parse_flag_id(flag)
    who, why = scrubbed(ports, tenant_id, actor, reason)
    closed = ports.flags.close(tenant_id, flag)
    if closed is None:
        raise NotFound(f"no open flag {flag!r}")
    done = "dismissed" if outcome is FlagOutcome.DISMISSED else "acted on"
    said = f"{done} the flag of {agent_actor(closed.agent_id)}"
    record_decision(
        ports,
        tenant_id,
        Action.DISMISS if outcome is FlagOutcome.DISMISSED else Action.RESOLVE,
        closed.kind.record_kind,
        closed.record_id,
        who,
        reason=(f"{said}: {why}" if why else said)[:MAX_REASON],
    )
    return closed


def flagged_by(ports: MemoryPorts, tenant_id: str, agent_id: str) -> Flagged:
    """What the agent flagged and is still open: one read of at most
    :data:`MAX_OPEN_FLAGS_PER_AGENT` flags, made on every read of the agent so a flag takes
    effect at once (no cache holds it).
    """
    return Flagged.of(ports.flags.of_agent(tenant_id, agent_id, limit=MAX_OPEN_FLAGS_PER_AGENT))
