"""The Strands integration on a real local store: AgentMemoryStore, the conversation manager."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from strands import Agent, tool
from strands.memory import AddMessagesContext, MemoryManager
from strands.types.content import Message, Messages
from strands.types.exceptions import ContextWindowOverflowException
from strands.types.tools import ToolResultStatus

from agent_memory.core.model import markers
from agent_memory.core.model.models import Message as CoreMessage
from agent_memory.core.model.policies import WorkingMemoryPolicy
from agent_memory.core.tiers.working_memory import summary_text
from agent_memory.integrations.strands import (
    AgentMemoryStore,
    MemoryConversationManager,
    to_core_messages,
)
from agent_memory.sdk import AsyncMemoryClient, InvalidInputError
from tests.sdk.conftest import LocalMemory, make_local, run_event
from tests.support.strands_model import ScriptedModel, text, use

TASK = "Review the Tailspin MSA liability cap"


def user(value: str) -> Message:
    return {"role": "user", "content": [text(value)]}


def assistant(*blocks: Any) -> Message:
    return {"role": "assistant", "content": list(blocks)}


def results(*pairs: tuple[str, str], status: ToolResultStatus = "success") -> Message:
    return {
        "role": "user",
        "content": [
            {"toolResult": {"toolUseId": call_id, "status": status, "content": [{"text": out}]}}
            for call_id, out in pairs
        ],
    }


def invocation(task: str = TASK) -> list[Message]:
    """One finished invocation: the task, two tools called at once, their results, the answer."""
    return [
        user(task),
        assistant(
            text("Reading the clause and the policy."),
            use("call-1", "read_clause", contract="Tailspin MSA"),
            use("call-2", "lookup_policy", topic="liability cap"),
        ),
        results(("call-1", "9.1 Liability: capped at 2x fees"), ("call-2", "Below 1x: sign-off")),
        assistant(text("- Clause 9.1 caps liability at 2x annual fees")),
    ]


def store_of(local: LocalMemory, **options: Any) -> AgentMemoryStore:
    return AgentMemoryStore(local.client, tenant_id="acme", agent_id="reviewer", **options)


def episodes(local: LocalMemory) -> list[Any]:
    page = local.ports().episodes.list_all(now=time.time(), limit=100)
    return list(page.items)


def remembered_procedure(local: LocalMemory) -> str:
    """A validated procedure for contract_review in ``local``'s store; its id."""
    local.client.finish_run(run_event("run-1")).wait(timeout=30)
    [proposed] = local.client.list_procedures("acme")
    local.client.approve_procedure("acme", proposed["procedure_id"], reviewer="legal-lead")
    return proposed["procedure_id"]


def test_messages_become_core_messages_with_their_tool_calls() -> None:
    # Given an invocation whose model called two tools at once
    # When it is converted
    core = to_core_messages(invocation())

    # Then each tool result answers its call, named for its tool, after the calling message
    assert [m.role for m in core] == ["human", "ai", "tool", "tool", "ai"]
    assert core[1].tool_calls == ("call-1", "call-2")
    assert core[1].content == (
        "Reading the clause and the policy.\n"
        '[tool call] read_clause {"contract": "Tailspin MSA"}\n'
        '[tool call] lookup_policy {"topic": "liability cap"}'
    )
    assert (core[2].tool_call_id, core[2].name) == ("call-1", "read_clause")
    assert (core[3].tool_call_id, core[3].name, core[3].content) == (
        "call-2",
        "lookup_policy",
        "Below 1x: sign-off",
    )


def test_a_failed_tool_result_says_so() -> None:
    core = to_core_messages(
        [assistant(use("c", "read_clause")), results(("c", "no such"), status="error")]
    )

    assert core[1].content == "[tool error] no such"


def test_add_messages_reports_one_run_that_search_then_finds(local: LocalMemory) -> None:
    # Given a store of the reviewer
    store = store_of(local, domain="contracts")

    # When an invocation's messages are added, with their sequence numbers
    handle = asyncio.run(store.add_messages(invocation(), AddMessagesContext([0, 1, 2, 3])))

    # Then one run was consolidated, from the messages, tool calls included
    assert handle is not None
    result = handle.wait(timeout=30)
    assert result["episode"] == "written" and result["outcome"] == "COMPLETED"
    [episode] = episodes(local)
    assert episode.run_id.startswith("strands-") and episode.task == TASK
    assert "read_clause" in episode.tools_used
    # And a later search finds it, as an entry naming the agent whose run it was
    found = asyncio.run(store.search("Tailspin MSA liability cap review"))
    assert [e.metadata["kind"] for e in found if e.metadata] == ["episodes"]
    [run] = (found[0].metadata or {})["runs"]
    assert isinstance(run.pop("score"), float)
    assert run == {"run_id": episode.run_id, "outcome": "COMPLETED", "agent_id": "reviewer"}
    # as a block of the memory's own construction: its past runs quoted after their labels
    read = markers.parse(found[0].content)
    [section] = read.sections
    assert section.kind == markers.EPISODIC
    assert any(line.startswith("  - ") and "2x annual fees" in line for line in section.lines)


def test_a_store_whose_searches_would_be_refused_is_refused(local: LocalMemory) -> None:
    # A team scope names its team; the error names the field, before any agent runs
    with pytest.raises(InvalidInputError) as refused:
        store_of(local, scope="team")
    assert refused.value.field == "team"
    with pytest.raises(InvalidInputError) as refused:
        store_of(local, task_type="contract review")
    assert refused.value.field == "task_type"


def test_a_team_store_on_the_async_client_reads_the_agents_own_runs(local: LocalMemory) -> None:
    # Given a run of the reviewer, and a store of its team on the async client
    asyncio.run(store_of(local).add_messages(invocation(), AddMessagesContext([0, 1, 2, 3])))
    local.client.close()
    memory = AsyncMemoryClient(make_local(local.store).client)
    team = AgentMemoryStore(
        memory, tenant_id="acme", agent_id="reviewer", scope="team", team=["auditor"]
    )

    # When it searches, then the team's read finds the reviewer's own run
    found = asyncio.run(team.search("Tailspin MSA liability cap review"))
    assert [r["agent_id"] for e in found if e.metadata for r in e.metadata["runs"]] == ["reviewer"]
    memory.sync.close()


def test_a_retried_batch_is_the_same_run(local: LocalMemory) -> None:
    # Given a batch reported once
    store = store_of(local)
    first = store.run_event(invocation(), [4, 5, 6, 7])
    handle = asyncio.run(store.add_messages(invocation(), AddMessagesContext([4, 5, 6, 7])))
    assert handle is not None and first is not None
    handle.wait(timeout=30)

    # When the manager hands the same batch again (a retry), and a redelivery reaches memory
    again = asyncio.run(store.add_messages(invocation(), AddMessagesContext([4, 5, 6, 7])))
    redelivered = local.client.finish_run(first).wait(timeout=30)

    # Then nothing new is reported, the redelivery is the same run, and memory holds one run
    assert again is None
    assert redelivered["episode"] == "already present"
    assert [e.run_id for e in episodes(local)] == [first["run_id"]]


def test_the_same_numbers_of_another_agent_session_are_another_run(local: LocalMemory) -> None:
    # Given a store whose agent reported its first invocation
    store = store_of(local)
    before = store.run_event(invocation(), [0, 1, 2, 3])
    # When a new agent is started with it (its numbers restart at 0)
    asyncio.run(store.initialize())
    after = store.run_event(invocation(), [0, 1, 2, 3])

    # Then its first invocation is a run of its own
    assert before is not None and after is not None
    assert before["run_id"] != after["run_id"]
    # And without a restart the same numbers give the same run
    assert store.run_event(invocation(), [0, 1, 2, 3])["run_id"] == after["run_id"]  # type: ignore[index]


def test_only_messages_not_yet_reported_go_in_a_later_batch(local: LocalMemory) -> None:
    # Given a batch reported
    store = store_of(local)
    asyncio.run(store.add_messages(invocation(), AddMessagesContext([0, 1, 2, 3])))

    # When a batch comes that holds those messages and a new invocation's
    later = [*invocation(), *invocation("Review the Contoso MSA liability cap")]
    event = store.run_event(later, list(range(8)))

    # Then its run is the new invocation alone
    assert event is not None
    assert event["task"] == "Review the Contoso MSA liability cap"
    assert len(event["messages"]) == 5


def test_search_serves_the_procedure_and_its_outcome_is_counted(local: LocalMemory) -> None:
    # Given a validated procedure for the task type
    procedure_id = remembered_procedure(local)
    store = store_of(local, task_type="contract_review")

    # When a search serves it and the invocation ends with the model's answer
    found = asyncio.run(store.search(TASK, {"max_search_results": 2}))
    handle = asyncio.run(store.add_messages(invocation(), AddMessagesContext([0, 1, 2, 3])))
    assert handle is not None
    result = handle.wait(timeout=30)

    # Then the procedure came first, and the run's success counted (the client had its receipt)
    assert len(found) == 2
    assert found[0].metadata is not None and found[0].metadata["kind"] == "procedure"
    assert found[0].metadata["procedure_id"] == procedure_id
    assert "Read clause 7.3" in found[0].content
    # And the entry asks the model for nothing the store reports on its behalf
    assert "whether it worked is reported with the run's outcome" in found[0].content
    assert "receipt" not in found[0].content
    assert result["procedure_feedback"] is not None
    assert result["procedure_feedback"]["counted"] is True
    counts = local.client.get_procedure("acme", procedure_id)
    assert (counts["times_applied"], counts["times_succeeded"]) == (1, 1)

    # And an invocation stopped on the way reports it as not having worked
    asyncio.run(store.search(TASK))
    stopped = invocation("Review the Contoso MSA liability cap")[:3]
    handle = asyncio.run(store.add_messages(stopped, AddMessagesContext([4, 5, 6])))
    assert handle is not None
    assert handle.wait(timeout=30)["outcome"] == "PARTIAL"
    counts = local.client.get_procedure("acme", procedure_id)
    assert (counts["times_applied"], counts["times_succeeded"]) == (2, 1)


def test_a_batch_without_a_served_procedure_reports_no_feedback(local: LocalMemory) -> None:
    remembered_procedure(local)
    store = store_of(local, task_type="contract_review")

    event = store.run_event(invocation(), [0, 1, 2, 3])

    assert event is not None and "procedure_feedback" not in event


def test_an_agent_with_the_store_reports_each_invocation_and_recalls_it(
    local: LocalMemory,
) -> None:
    # Given an agent whose memory manager holds the store
    @tool
    def read_clause(contract: str) -> str:
        """The liability clause of ``contract``."""
        return "9.1 Liability: capped at 2x fees"

    def run(task: str, store: AgentMemoryStore) -> ScriptedModel:
        model = ScriptedModel(
            [
                [use("call-1", "read_clause", contract="Tailspin MSA")],
                [text("- Clause 9.1 caps at 2x")],
            ]
        )
        agent = Agent(
            model=model,
            tools=[read_clause],
            memory_manager=MemoryManager(stores=[store], search_tool_config=False),
            callback_handler=None,
        )
        agent(task)
        assert store.last_handle is not None
        store.last_handle.wait(timeout=30)
        return model

    # When it runs once, then a new agent runs a related task
    first = run(TASK, store_of(local))
    second = run("Review the Tailspin MSA liability cap again", store_of(local))

    # Then the first run was reported with its tool call and result
    [episode] = [e for e in episodes(local) if e.task == TASK]
    assert episode.tools_used == ("read_clause",)
    # And the second run's first model call was given it as memory; the first's, nothing
    assert "<memory>" not in str(first.calls[0])
    assert "<memory>" in str(second.calls[0]) and "caps at 2x" in str(second.calls[0])
    assert len(episodes(local)) == 2


# --- working memory ---------------------------------------------------------------------


def conversation(turns: int) -> list[Message]:
    """A task, then ``turns`` tool turns (every third calls two tools), then an answer."""
    messages: list[Message] = [user("Review every clause of the Tailspin MSA")]
    for n in range(turns):
        calls = [(f"c{n}", f"clause {n}")] + ([(f"d{n}", f"policy {n}")] if n % 3 == 0 else [])
        messages.append(assistant(*(use(i, "read_clause", n=n) for i, _ in calls)))
        messages.append(results(*calls))
    messages.append(assistant(text("Done.")))
    return messages


def dialogue(invocations: int) -> list[Message]:
    """``invocations`` questions, each answered after one tool call."""
    messages: list[Message] = []
    for n in range(invocations):
        messages.append(user(f"What does clause {n} say?"))
        messages.append(assistant(use(f"q{n}", "read_clause", n=n)))
        messages.append(results((f"q{n}", f"clause {n}")))
        messages.append(assistant(text(f"Clause {n} says so.")))
    return messages


def is_summary(message: Message) -> bool:
    texts = [b["text"] for b in message["content"] if "text" in b]
    return bool(texts) and summary_text(CoreMessage("system", texts[0])) is not None


def assert_tool_pairs_intact(messages: Messages) -> None:
    for i, message in enumerate(messages):
        for block in message["content"]:
            if "toolUse" in block:
                answer = messages[i + 1]["content"]
                ids = {b["toolResult"]["toolUseId"] for b in answer if "toolResult" in b}
                assert block["toolUse"]["toolUseId"] in ids
            if "toolResult" in block:
                asked = messages[i - 1]["content"] if i > 0 else []
                ids = {b["toolUse"]["toolUseId"] for b in asked if "toolUse" in b}
                assert block["toolResult"]["toolUseId"] in ids


@pytest.mark.parametrize("keep_recent", range(1, 12))
@pytest.mark.parametrize("shape", [conversation, dialogue])
def test_compression_keeps_tool_pairs_and_alternating_roles(
    keep_recent: int, shape: Callable[[int], list[Message]]
) -> None:
    # Given a long conversation: one task and many tool turns, or many questions
    original = shape(8)
    messages = list(original)
    manager = MemoryConversationManager(
        policy=WorkingMemoryPolicy(compress_at=6, keep_recent=keep_recent)
    )

    # When it is compressed
    assert manager.compress(messages, manager.policy)

    # Then a summary opens it, the model's message follows, and the rest are the originals
    summary = summary_text(CoreMessage("system", messages[0]["content"][0]["text"]))
    assert summary is not None and "read_clause" in summary
    assert messages[0]["role"] == "user" and messages[1]["role"] == "assistant"
    assert all(any(m is o for o in original) for m in messages[1:])
    assert messages[1:] == original[len(original) - len(messages) + 1 :]
    assert [m["role"] for m in messages] == ["user", "assistant"] * (len(messages) // 2) + (
        ["user"] if len(messages) % 2 else []
    )
    assert_tool_pairs_intact(messages)
    assert manager.removed_message_count == len(original) - len(messages) + 1


def test_a_second_compression_folds_the_first_summary_in() -> None:
    # Given a conversation compressed once, that grew again
    manager = MemoryConversationManager(policy=WorkingMemoryPolicy(compress_at=6, keep_recent=2))
    messages = conversation(4)
    manager.compress(messages, manager.policy)
    first_summary = messages[0]
    removed = manager.removed_message_count
    messages += conversation(4)[1:]

    # When it is compressed again
    manager.compress(messages, manager.policy)

    # Then one summary opens it, a new one, and the removed count leaves the summary out
    assert messages[0] is not first_summary
    opening = [
        m
        for m in messages
        if summary_text(CoreMessage("system", str(m["content"][0].get("text", ""))))
    ]
    assert opening == [messages[0]]
    assert manager.removed_message_count > removed
    assert_tool_pairs_intact(messages)


def test_a_short_conversation_is_left_alone() -> None:
    manager = MemoryConversationManager()
    messages = conversation(3)

    assert not manager.compress(messages, manager.policy)
    assert messages == conversation(3)


def test_an_overflow_with_nothing_to_summarize_is_raised() -> None:
    # Given an agent whose conversation is one message
    agent = Agent(model=ScriptedModel([]), callback_handler=None, messages=[user("Hi")])
    manager = MemoryConversationManager()

    # When the model overflows, then the manager cannot help and says so
    with pytest.raises(ContextWindowOverflowException):
        manager.reduce_context(agent, e=ContextWindowOverflowException("too long"))

    # And an overflow of a longer one keeps half of it, pairs intact
    agent.messages[:] = conversation(6)
    manager.reduce_context(agent, e=ContextWindowOverflowException("too long"))
    assert len(agent.messages) < len(conversation(6)) // 2 + 3
    assert_tool_pairs_intact(agent.messages)


def test_the_model_sees_the_compressed_conversation_in_a_long_invocation() -> None:
    # Given an agent calling a tool five times with small working-memory thresholds
    @tool
    def read_clause(n: int) -> str:
        """Clause ``n``."""
        return f"clause {n} text"

    replies = [[use(f"c{n}", "read_clause", n=n)] for n in range(5)] + [[text("Done.")]]
    model = ScriptedModel(replies)
    agent = Agent(
        model=model,
        tools=[read_clause],
        conversation_manager=MemoryConversationManager(
            policy=WorkingMemoryPolicy(compress_at=6, keep_recent=2)
        ),
        callback_handler=None,
    )

    # When it runs
    agent("Read the clauses")

    # Then later calls open with the summary and still see every kept call with its result
    last = model.calls[-1]
    assert "[WORKING MEMORY SUMMARY" in str(last[0]["content"][0].get("text", ""))
    assert len(last) < 12
    assert_tool_pairs_intact(last)
    assert "clause 0 text" in str(last[0])
