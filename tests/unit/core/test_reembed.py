"""Changing the embedding model: re-embed beside, switch at once, never mix spaces, resume."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest

from agent_memory.core.model import markers
from agent_memory.core.model.calibration import Calibration
from agent_memory.core.model.errors import Conflict, InvalidInput
from agent_memory.core.model.models import Episode, StoredVector
from agent_memory.core.model.policies import HOUR
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.ports import Embedder, FloatArray, Lease, MemoryPorts
from agent_memory.core.retrieval import vectors
from agent_memory.core.workflows import reembed
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.core.workflows.ingestion import run_ingestion
from agent_memory.wiring.local import local_ports
from agent_memory.wiring.local_settings import LocalSettings
from tests.support.embedder import HashingEmbedder, RecordingEmbedder
from tests.support.fakes import FakePiiDetector
from tests.support.memory import DAY, HASHING_CALIBRATION, T0, Clock, run_event

REQUEST = BootstrapRequest(
    "acme",
    "reviewer",
    "Check the vendor MSA: are liability caps below 1x fees?",
    "contract_review",
    "contracts",
)
WORDS_CALIBRATION = Calibration("test-words", 0.2, 0.2, "tests: word-overlap vectors")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def old() -> HashingEmbedder:
    return HashingEmbedder(dimension=256, model_id="test-hashing-256")


@pytest.fixture
def new() -> HashingEmbedder:
    return HashingEmbedder(dimension=64, model_id="test-words-64")


def wire(
    root: Path, embedder: Embedder, clock: Clock, *, new_calibrated: bool = True
) -> MemoryPorts:
    """The memory as a process wires it: SQLite, the local KB, and ``embedder``."""
    ports = local_ports(LocalSettings(store=root), embedder=embedder, pii=FakePiiDetector())
    calibrations = {**ports.calibrations, "test-hashing": HASHING_CALIBRATION}
    if new_calibrated:
        calibrations["test-words"] = WORDS_CALIBRATION
    return replace(ports, clock=clock, calibrations=calibrations)


def resolver(*embedders: Embedder) -> Callable[[str], Embedder]:
    return {e.model_id: e for e in embedders}.__getitem__


def consolidated(root: Path, embedder: Embedder, clock: Clock) -> MemoryPorts:
    """A store that has served three runs (one fact confirmed, then ingested) with ``embedder``."""
    ports = wire(root, embedder, clock)
    for run_id in ("r1", "r2", "r3"):
        consolidate(run_event(run_id), ports)
        clock.advance(HOUR)  # the agent's runs count as confirmations an hour apart
    run_ingestion(ports.facts, ports.knowledge_base, ports.checkpoints, now=clock())
    return ports


def migrated(ports: MemoryPorts, new: Embedder) -> reembed.ReembedReport:
    reembed.begin(ports, new)
    return reembed.advance(ports, resolver(ports.embedder, new))


def switched(ports: MemoryPorts, new: Embedder) -> reembed.ReembedReport:
    migrated(ports, new)
    reembed.request_switch(ports)
    return reembed.advance(ports, resolver(ports.embedder, new))


def hits(reply: dict[str, object]) -> tuple[set[str], list[float]]:
    episodes = reply["episodes"]
    assert isinstance(episodes, list)
    return {e["run_id"] for e in episodes}, [e["similarity"] for e in episodes]


def sections(reply: dict[str, Any]) -> tuple[markers.Section, ...]:
    """The context's sections (each reply's block has a token of its own)."""
    return markers.parse(reply["context"]).sections


def test_migration_writes_new_vectors_while_bootstrap_keeps_serving_the_old_ones(
    tmp_path: Path, clock: Clock, old: HashingEmbedder, new: HashingEmbedder
) -> None:
    # Given a store served with the old model
    ports = consolidated(tmp_path, old, clock)
    before = bootstrap(REQUEST, ports)
    # When it is re-embedded with the new model
    report = migrated(ports, new)
    # Then every episode and fact holds the new model's vectors beside the old ones
    assert report.done and report.stage == "embedding"
    assert (report.counts["episodes"].embedded, report.counts["facts"].embedded) == (3, 1)
    episode = ports.episodes.get("acme", "reviewer", "r1", now=clock())
    assert episode is not None and episode.embedding and episode.spare_embedding
    assert (episode.embedding.model_id, episode.spare_embedding.model_id) == (
        old.model_id,
        new.model_id,
    )
    assert all(
        u.spare_embedding and u.spare_embedding.model_id == new.model_id for u in episode.units
    )
    [fact] = ports.facts.export("acme")
    assert fact.spare_embedding is not None and fact.spare_embedding.model_id == new.model_id
    # And bootstrap still embeds with the old model and finds what it found before
    calls = new.calls
    after = bootstrap(REQUEST, ports)
    assert new.calls == calls
    assert (sections(after), hits(after)) == (sections(before), hits(before))
    assert ports.knowledge_base.index_model() == old.model_id  # type: ignore[attr-defined]


def test_switch_flips_searches_to_the_new_model(
    tmp_path: Path, clock: Clock, old: HashingEmbedder, new: HashingEmbedder
) -> None:
    # Given a store re-embedded with the new model
    ports = consolidated(tmp_path, old, clock)
    # When it switches
    report = switched(ports, new)
    # Then the one active-model record names the new model
    assert report.done and report.stage == "switched"
    active = reembed.active_model(ports)
    assert active is not None
    assert (active.model_id, active.previous_model_id) == (new.model_id, old.model_id)
    # And a process wired now embeds with it, and finds the episodes and the fact in its space
    with pytest.raises(Conflict, match="active embedding model"):
        wire(tmp_path, old, clock)
    served = wire(tmp_path, new, clock)
    old_calls, new_calls = old.calls, new.calls
    reply = bootstrap(REQUEST, served)
    assert old.calls == old_calls and new.calls > new_calls
    found, similarities = hits(reply)
    assert found == {"r1", "r2", "r3"} and all(s >= 0.2 for s in similarities)
    assert [f["source"] for f in reply["facts"]] == ["knowledge_base"]
    assert served.knowledge_base.index_model() == new.model_id  # type: ignore[attr-defined]


def test_a_query_is_never_compared_with_vectors_of_another_model(
    tmp_path: Path, clock: Clock, old: HashingEmbedder, new: HashingEmbedder
) -> None:
    # Given a store holding episodes with the old model's vectors, the new one's, both, and
    # decoys: vectors labelled with one model that would match the other model's query
    # perfectly if they were ever compared with it
    ports = wire(tmp_path, old, clock)
    text = REQUEST.task

    def real(embedder: Embedder) -> StoredVector:
        return vectors.encode(embedder.embed_documents([text])[0], embedder.model_id)

    def decoy(of: Embedder, labelled: Embedder) -> StoredVector:
        return vectors.encode(of.embed_query(text), labelled.model_id)

    for run_id, embedding, spare in (
        ("only-old", real(old), None),
        ("only-new", real(new), None),
        ("both", real(old), real(new)),
        ("decoy-for-old", decoy(old, labelled=new), None),
        ("decoy-for-new", decoy(new, labelled=old), None),
    ):
        ports.episodes.add(stored_episode(run_id, embedding, spare))
    # When the old model's process bootstraps
    found, _ = hits(bootstrap(REQUEST, ports))
    # Then it compared its query with old vectors only: no new vector, no decoy
    assert found == {"only-old", "both"}
    # And what it skipped is counted: three of five episodes hold no vector of its model
    coverage = reembed.status(ports, coverage=True).coverage
    assert coverage is not None
    assert asdict(coverage["episodes"]) == {"records": 5, "active": 2, "target": 0, "skipped": 3}
    # And a process of the new model sees exactly the other side
    found_new, _ = hits(bootstrap(REQUEST, wire(tmp_path, new, clock)))
    assert found_new == {"only-new", "both"}


def test_an_interrupted_migration_resumes_where_it_stopped(
    tmp_path: Path, clock: Clock, old: HashingEmbedder, new: HashingEmbedder
) -> None:
    # Given a store of three episodes and a fact, re-embedded one record per page
    ports = consolidated(tmp_path, old, clock)
    reembed.begin(ports, new)
    pages = iter(range(100))
    # When the job is stopped after two pages (a Lambda near its timeout)
    first = reembed.advance(
        ports, resolver(old, new), page_size=1, should_stop=lambda: next(pages) >= 2
    )
    assert not first.done and first.position == "episodes"
    assert first.counts["episodes"].embedded == 2
    # And a later run crashes inside a page (the embedding model fails)
    failing = FailingEmbedder(new)
    with pytest.raises(RuntimeError):
        reembed.advance(ports, resolver(old, failing), page_size=1)
    # Then a resumed run finishes the pass, embedding each record exactly once
    calls = new.calls
    last = reembed.advance(ports, resolver(old, new), page_size=1)
    assert last.done
    assert {k: (c.seen, c.embedded) for k, c in last.counts.items()} == {
        "episodes": (3, 3),
        "facts": (1, 1),
    }
    assert new.calls - calls == 2  # the third episode and the fact
    # And running it again changes nothing
    again = reembed.advance(ports, resolver(old, new))
    assert again.done and again.counts["episodes"].embedded == 3


def test_switching_to_a_model_without_calibration_is_refused(
    tmp_path: Path, clock: Clock, old: HashingEmbedder, new: HashingEmbedder
) -> None:
    # Given a store re-embedded with a model nobody calibrated
    ports = consolidated(tmp_path, old, clock)
    ports = replace(ports, calibrations={"test-hashing": HASHING_CALIBRATION})
    migrated(ports, new)
    # When the switch is asked for, then it is refused, naming the missing calibration
    with pytest.raises(Conflict, match=r"test-words-64.*no similarity calibration"):
        reembed.request_switch(ports)
    # And nothing moved: the old model stays active, the migration waits
    active = reembed.active_model(ports)
    current = reembed.migration(ports)
    assert active is not None and active.model_id == old.model_id
    assert current is not None and current.stage is reembed.Stage.EMBEDDING


def test_switching_before_the_pass_is_complete_is_refused(
    tmp_path: Path, clock: Clock, old: HashingEmbedder, new: HashingEmbedder
) -> None:
    ports = consolidated(tmp_path, old, clock)
    reembed.begin(ports, new)
    with pytest.raises(Conflict, match="not complete"):
        reembed.request_switch(ports)


def test_the_switch_catches_up_records_written_during_the_migration(
    tmp_path: Path, clock: Clock, old: HashingEmbedder, new: HashingEmbedder
) -> None:
    # Given a finished re-embedding pass, then one more run served with the old model
    ports = consolidated(tmp_path, old, clock)
    migrated(ports, new)
    consolidate(run_event("r4"), ports)
    # When the store switches
    reembed.request_switch(ports)
    report = reembed.advance(ports, resolver(old, new))
    # Then the catch-up pass gave the late episode the new model's vectors too
    assert report.stage == "switched"
    assert report.counts["episodes"].embedded == 1
    assert report.counts["episodes"].unchanged == 3
    found, _ = hits(bootstrap(REQUEST, wire(tmp_path, new, clock)))
    assert "r4" in found


def test_finish_drops_the_old_vectors_and_embeds_stragglers(
    tmp_path: Path, clock: Clock, old: HashingEmbedder, new: HashingEmbedder
) -> None:
    # Given a switched store, and an episode a process still on the old model wrote after it
    ports = consolidated(tmp_path, old, clock)
    switched(ports, new)
    ports.episodes.add(stored_episode("late", vectors.encode(old.embed_query("x"), old.model_id)))
    served = wire(tmp_path, new, clock)
    # When the migration finishes
    reembed.request_finish(served)
    report = reembed.advance(served, resolver(new))
    # Then every record holds the new model's vectors only, the straggler included
    assert report.stage == "finished" and reembed.migration(served) is None
    assert report.counts["episodes"].dropped == 4 and report.counts["episodes"].embedded == 1
    for episode in served.episodes.export("acme"):
        assert episode.embedding is not None and episode.embedding.model_id == new.model_id
        assert episode.spare_embedding is None
        assert all(u.spare_embedding is None for u in episode.units)
    assert all(f.spare_embedding is None for f in served.facts.export("acme"))


def test_finish_is_refused_to_a_process_still_on_the_old_model(
    tmp_path: Path, clock: Clock, old: HashingEmbedder, new: HashingEmbedder
) -> None:
    # (On AWS: the switch is recorded, but the functions are not yet deployed with the model.)
    ports = consolidated(tmp_path, old, clock)
    switched(ports, new)
    with pytest.raises(Conflict, match="active embedding model is 'test-words-64'"):
        reembed.request_finish(ports)


def test_abort_drops_the_new_vectors_and_keeps_the_old_model(
    tmp_path: Path, clock: Clock, old: HashingEmbedder, new: HashingEmbedder
) -> None:
    ports = consolidated(tmp_path, old, clock)
    migrated(ports, new)
    reembed.request_abort(ports)
    report = reembed.advance(ports, resolver(old, new))
    assert report.stage == "aborted" and reembed.migration(ports) is None
    assert all(e.spare_embedding is None for e in ports.episodes.export("acme"))
    assert not (tmp_path / "kb" / "index-next").exists()


def test_a_second_target_waits_for_the_first_and_the_active_model_is_no_target(
    tmp_path: Path, clock: Clock, old: HashingEmbedder, new: HashingEmbedder
) -> None:
    ports = consolidated(tmp_path, old, clock)
    reembed.begin(ports, new)
    assert reembed.begin(ports, new).target_model_id == new.model_id  # the same one resumes
    with pytest.raises(Conflict, match="in progress"):
        reembed.begin(ports, HashingEmbedder(dimension=32, model_id="test-other-32"))
    reembed.request_abort(ports)
    reembed.advance(ports, resolver(old, new))
    with pytest.raises(InvalidInput, match="already the active model"):
        reembed.begin(ports, old)


def test_one_run_at_a_time_and_a_crashed_runs_lease_lapses(
    tmp_path: Path, clock: Clock, old: HashingEmbedder, new: HashingEmbedder
) -> None:
    # Given a migration, and another run holding the lease (a concurrent schedule, a shell)
    ports = consolidated(tmp_path, old, clock)
    reembed.begin(ports, new)
    ports.checkpoints.acquire(Lease.REEMBEDDING, "other", now=clock(), until=clock() + 600)
    # When this run starts, then it is refused and changes nothing
    with pytest.raises(Conflict, match="another re-embedding run"):
        reembed.advance(ports, resolver(old, new))
    current = reembed.migration(ports)
    assert current is not None and current.counts["episodes"].seen == 0
    # When the other run's lease lapses (it crashed), this one proceeds and releases its own
    clock.advance(reembed.LEASE_SECONDS)
    assert reembed.advance(ports, resolver(old, new)).done
    assert ports.checkpoints.acquire(Lease.REEMBEDDING, "next", now=clock(), until=clock() + 1)


class FailingEmbedder:
    """Embeds like ``inner`` until its second call, then fails (a model outage)."""

    def __init__(self, inner: HashingEmbedder) -> None:
        self._inner, self._calls = inner, 0
        self.model_id, self.dimension = inner.model_id, inner.dimension

    def embed_documents(self, texts: Sequence[str]) -> FloatArray:
        self._calls += 1
        if self._calls >= 2:
            raise RuntimeError("model unavailable")
        return self._inner.embed_documents(texts)

    def embed_query(self, text: str) -> FloatArray:
        return self._inner.embed_query(text)


def stored_episode(
    run_id: str, embedding: StoredVector, spare: StoredVector | None = None
) -> Episode:
    return Episode(
        tenant_id="acme",
        agent_id="reviewer",
        run_id=run_id,
        task=REQUEST.task,
        task_summary="Reviewed the vendor MSA liability cap",
        outcome="COMPLETED",
        created_at=T0 - DAY,
        expires_at=T0 + 90 * DAY,
        embedding=embedding,
        spare_embedding=spare,
    )


def test_the_migration_embeds_each_unit_as_consolidation_did_neighbours_included(
    tmp_path: Path, clock: Clock
) -> None:
    # Given a chat run consolidated with a policy that embeds short messages with a neighbour
    old, new = RecordingEmbedder(256, "test-hashing-256"), RecordingEmbedder(64, "test-words-64")
    ports = wire(tmp_path, old, clock)
    episodic = replace(ports.policies.episodic, embedded_context=1)
    ports = replace(ports, policies=replace(ports.policies, episodic=episodic))
    messages = [
        {"role": "user", "content": "Is the liability cap in clause 7.3 below 1x fees?"},
        {"role": "assistant", "content": "Yes."},
        {"role": "user", "content": "Flag it."},
    ]
    consolidate(run_event("r1", messages=messages), ports)
    # When the store is re-embedded with another model
    migrated(ports, new)
    # Then the new model was given the texts consolidation embedded, and no other
    assert any("\n" in t and t.split("\n")[0].endswith("Yes.") for t in new.embedded)
    assert new.embedded and set(new.embedded) <= set(old.embedded)
