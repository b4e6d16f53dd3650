"""Episodic memory in DynamoDB: one item per (``{tenant}#{agent}``, run_id), TTL on expires_at."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any, cast

from agent_memory.adapters.aws.dynamodb_codec import (
    ConditionFailed,
    DynamoDbClient,
    Item,
    b,
    check_limit,
    get_float,
    get_int,
    get_opt_s,
    get_s,
    get_strings,
    get_vector,
    n,
    partition_key,
    put_optional,
    put_vector,
    s,
    strings,
    tenant_prefix,
    translated,
    vector_update,
)
from agent_memory.adapters.aws.dynamodb_paging import (
    Listing,
    batch_delete,
    batch_get,
    count_values,
    delete_all,
    read_all,
    read_page,
    scan_counts,
    scan_page,
)
from agent_memory.adapters.aws.dynamodb_schema import (
    AGENT_TIME_INDEX,
    EPISODES,
    FAILED_SHARD,
    FAILED_TIME_INDEX,
    SHARDS,
    TENANT_INDEX,
    TENANT_KEY,
    shard_key,
    shard_of,
)
from agent_memory.adapters.unit_codec import (
    PackedVectors,
    pack_spare_units,
    pack_units,
    unpack_units,
)
from agent_memory.core.models import Episode, Outcome
from agent_memory.core.ports import EpisodeChanges, Page

_FAILED = "FAILED"
_SPARE = "spare_embedding"
_VECTOR_ATTRIBUTES = tuple(
    f"{name}{suffix}"
    for name, suffixes in (
        ("embedding", ("", "_model", "_dimension")),
        (_SPARE, ("", "_model", "_dimension")),
        ("unit", ("_model", "_dimension", "_vectors")),
        ("unit_spare", ("_model", "_dimension", "_vectors")),
    )
    for suffix in suffixes
)
# Sort key of each agent's version item: '#' never occurs in a run id.
_VERSION = "#version"
# How many of an agent's latest additions its version item logs (a few KB at most).
LOGGED_ADDITIONS = 32


class DynamoDbEpisodeStore:
    """``EpisodeStore`` over the episodes table (:data:`~.dynamodb_schema.EPISODES`).

    ``add`` is a conditional put (the run id is the idempotency key). Expiry is applied on read,
    since TTL deletes items only eventually; ``purge_expired`` leaves the work to TTL. FAILED
    episodes also carry ``failed_shard``, which puts them in the sparse index decay pages.
    Episodes are read in ``active_model``'s space when given (:meth:`Episode.in_space`).
    """

    def __init__(
        self, client: DynamoDbClient, table_name: str, *, active_model: str | None = None
    ) -> None:
        self._client = client
        self._table = table_name
        self._model = active_model

    def _as_episode(self, item: Item) -> Episode:
        episode = _episode(item)
        return episode if self._model is None else episode.in_space(self._model)

    def add(self, episode: Episode) -> bool:
        """Write the episode unless its key exists (expired or not); True if this call wrote it."""
        # The version moves after the write, so a cache reading in between keeps the old token
        # and looks again. A retry whose first try wrote the episode but not the version still
        # moves it: a run's episode is never written without caches being told.
        try:
            with translated():
                self._client.put_item(
                    TableName=self._table,
                    Item=_item(episode),
                    ConditionExpression="attribute_not_exists(pk)",
                )
        except ConditionFailed:
            self._added(episode.tenant_id, episode.agent_id, episode.run_id)
            return False
        self._added(episode.tenant_id, episode.agent_id, episode.run_id)
        return True

    def get(self, tenant_id: str, agent_id: str, run_id: str, *, now: float) -> Episode | None:
        """The episode, or None if absent or expired (``expires_at <= now``)."""
        with translated():
            response = self._client.get_item(
                TableName=self._table,
                Key=_key(tenant_id, agent_id, run_id),
                ConsistentRead=True,
            )
        item = response.get("Item")
        if item is None or get_float(item, "expires_at") <= now:
            return None
        return self._as_episode(item)

    def recent(
        self, tenant_id: str, agent_id: str, *, now: float, limit: int, cursor: str | None = None
    ) -> Page[Episode]:
        """The agent's unexpired episodes, newest first (``agent-time-index``, descending)."""
        listing = Listing(
            design=EPISODES,
            table_name=self._table,
            kind="episodes.recent",
            partitions=(partition_key(tenant_id, agent_id),),
            index=EPISODES.index(AGENT_TIME_INDEX),
            filter="#expires_at > :now",
            names={"#expires_at": "expires_at"},
            values={":now": n(now)},
            forward=False,
        )
        page = read_page(self._client, listing, limit=limit, cursor=cursor)
        return Page(tuple(self._as_episode(i) for i in page.items), page.cursor)

    def failed_before(
        self, cutoff: float, *, now: float, limit: int, cursor: str | None = None
    ) -> Page[Episode]:
        """Unexpired FAILED episodes of every tenant created before ``cutoff``.

        Reads the sparse ``failed-time-index`` shard by shard, oldest first within a shard.
        """
        listing = Listing(
            design=EPISODES,
            table_name=self._table,
            kind="episodes.failed_before",
            partitions=tuple(shard_key(_FAILED, i) for i in range(SHARDS)),
            index=EPISODES.index(FAILED_TIME_INDEX),
            range_condition="#rk < :cutoff",
            filter="#expires_at > :now",
            names={"#expires_at": "expires_at"},
            values={":cutoff": n(cutoff), ":now": n(now)},
        )
        page = read_page(self._client, listing, limit=limit, cursor=cursor)
        return Page(tuple(self._as_episode(i) for i in page.items), page.cursor)

    def delete(self, tenant_id: str, agent_id: str, run_id: str) -> bool:
        """Delete one episode, expired or not; True if it existed."""
        try:
            with translated():
                self._client.delete_item(
                    TableName=self._table,
                    Key=_key(tenant_id, agent_id, run_id),
                    ConditionExpression="attribute_exists(pk)",
                )
        except ConditionFailed:
            # Perhaps a retry of a delete that was done but whose version did not move.
            self._rewritten(tenant_id, agent_id)
            return False
        self._rewritten(tenant_id, agent_id)
        return True

    def count_by_outcome(self, *, now: float, tenant_id: str | None = None) -> dict[str, int]:
        """Unexpired episodes by outcome: the tenant's through ``tenant-index`` (read by key),
        every tenant's by a parallel Scan that projects the outcome (version items hold none).
        """
        if tenant_id is None:
            return scan_counts(
                self._client,
                self._table,
                "outcome",
                filter="attribute_exists(#value) AND #expires_at > :now",
                names={"#expires_at": "expires_at"},
                values={":now": n(now)},
            )
        items = read_all(self._client, self._tenant_listing(tenant_id, hydrate=True))
        return count_values((i for i in items if get_float(i, "expires_at") > now), "outcome")

    def version(self, tenant_id: str, agent_id: str) -> str:
        """``{nonce}.{count}``: the agent's version item's random nonce, new whenever an
        episode is deleted or rewritten (or the item is forgotten), and its count of additions.
        """
        return _token(self._version_item(tenant_id, agent_id))

    def changes_since(
        self, tenant_id: str, agent_id: str, version: str, *, now: float, limit: int
    ) -> EpisodeChanges:
        """The agent's version now, and the episodes its version item's log of the last
        additions names after ``version``, read by key: one read of the version item, then
        only the new episodes. ``added`` is None if the nonce changed or the log no longer
        reaches back that far.
        """
        check_limit(limit)
        item = self._version_item(tenant_id, agent_id)
        current = _token(item)
        run_ids = _logged_since(item, version, limit)
        if run_ids is None:
            return EpisodeChanges(current, None)
        keys = [_key(tenant_id, agent_id, r) for r in dict.fromkeys(run_ids)]
        found = batch_get(self._client, self._table, ("pk", "run_id"), keys)
        episodes = [
            self._as_episode(i) for i in found if i is not None and get_float(i, "expires_at") > now
        ]
        episodes.sort(key=lambda e: (e.created_at, e.run_id), reverse=True)
        return EpisodeChanges(current, episodes)

    def _version_item(self, tenant_id: str, agent_id: str) -> Item | None:
        with translated():
            response = self._client.get_item(
                TableName=self._table,
                Key=_key(tenant_id, agent_id, _VERSION),
                ConsistentRead=True,
            )
        return cast(Item | None, response.get("Item"))

    def _added(self, tenant_id: str, agent_id: str, run_id: str) -> None:
        """Count an addition on the agent's version item, then log its run id in the slot of
        its number (the last ``LOGGED_ADDITIONS`` additions stay readable).
        """
        key = _key(tenant_id, agent_id, _VERSION)
        with translated():
            reply = self._client.update_item(
                TableName=self._table,
                Key=key,
                UpdateExpression=(
                    "ADD #added :one SET #nonce = if_not_exists(#nonce, :nonce), "
                    "#log = if_not_exists(#log, :empty)"
                ),
                ExpressionAttributeNames={"#added": "added", "#nonce": "nonce", "#log": "log"},
                ExpressionAttributeValues={
                    ":one": n(1),
                    ":nonce": s(uuid.uuid4().hex),
                    ":empty": {"M": {}},
                },
                ReturnValues="ALL_NEW",
            )
        number = get_int(reply["Attributes"], "added")
        try:
            with translated():
                self._client.update_item(
                    TableName=self._table,
                    Key=key,
                    UpdateExpression="SET #log.#slot = :entry",
                    # A rewrite in between started a new nonce: nothing left to log in.
                    ConditionExpression="#nonce = :nonce",
                    ExpressionAttributeNames={
                        "#log": "log",
                        "#slot": str(number % LOGGED_ADDITIONS),
                        "#nonce": "nonce",
                    },
                    ExpressionAttributeValues={
                        ":entry": {"M": {"n": n(number), "run_id": s(run_id)}},
                        ":nonce": reply["Attributes"]["nonce"],
                    },
                )
        except ConditionFailed:
            pass

    def _rewritten(self, tenant_id: str, agent_id: str) -> None:
        """Give the agent's version item a fresh nonce (never a counter: it cannot repeat
        after a forget), which no earlier version can be read from.
        """
        with translated():
            self._client.put_item(
                TableName=self._table,
                Item={
                    **_key(tenant_id, agent_id, _VERSION),
                    "nonce": s(uuid.uuid4().hex),
                    "added": n(0),
                },
            )

    def list_all(self, *, now: float, limit: int, cursor: str | None = None) -> Page[Episode]:
        """Unexpired episodes of every tenant: a consistent Scan of the table, page by page."""
        page = scan_page(
            self._client,
            design=EPISODES,
            table_name=self._table,
            kind="episodes.list_all",
            limit=limit,
            cursor=cursor,
            # Version items carry no tenant_id.
            filter="attribute_exists(tenant_id) AND #expires_at > :now",
            names={"#expires_at": "expires_at"},
            values={":now": n(now)},
        )
        return Page(tuple(self._as_episode(i) for i in page.items), page.cursor)

    def set_vectors(self, episode: Episode) -> bool:
        """Replace the episode's vectors (both slots) if it exists with the same units."""
        update = vector_update(_vector_attributes(episode))
        update["ExpressionAttributeNames"]["#units"] = "units"
        # An episode without units is stored without the attribute.
        same_units = "attribute_not_exists(#units)"
        if episode.units:
            same_units = "#units = :units"
            update["ExpressionAttributeValues"][":units"] = s(pack_units(episode.units)[0])
        if not update["ExpressionAttributeValues"]:
            del update["ExpressionAttributeValues"]
        try:
            with translated():
                self._client.update_item(
                    TableName=self._table,
                    Key=_key(episode.tenant_id, episode.agent_id, episode.run_id),
                    ConditionExpression=f"attribute_exists(pk) AND {same_units}",
                    **update,
                )
        except ConditionFailed:
            return False
        self._rewritten(episode.tenant_id, episode.agent_id)
        return True

    def purge_expired(self, now: float, *, limit: int) -> int:
        """Return 0: DynamoDB's TTL deletes expired episodes (reads already hide them)."""
        del now, limit
        return 0

    def export(self, tenant_id: str) -> Iterator[Episode]:
        """Every stored episode of the tenant, expired or not (``tenant-index``, read by key)."""
        listing = self._tenant_listing(tenant_id, hydrate=True)
        return (self._as_episode(item) for item in read_all(self._client, listing))

    def forget(self, tenant_id: str) -> int:
        """Delete every episode of the tenant; the number of episodes found and deleted."""
        listing = self._tenant_listing(tenant_id, hydrate=False)
        agents = {get_s(item, "pk") for item in read_all(self._client, listing)}
        deleted = delete_all(self._client, listing)
        # Version items carry no tenant index key; remove those of the agents just forgotten.
        batch_delete(
            self._client, self._table, [{"pk": s(pk), "run_id": s(_VERSION)} for pk in agents]
        )
        return deleted

    def _tenant_listing(self, tenant_id: str, *, hydrate: bool) -> Listing:
        return Listing(
            design=EPISODES,
            table_name=self._table,
            kind="episodes.tenant",
            partitions=(tenant_prefix(tenant_id),),
            index=EPISODES.index(TENANT_INDEX),
            hydrate=hydrate,
        )


def _key(tenant_id: str, agent_id: str, run_id: str) -> Item:
    return {"pk": s(partition_key(tenant_id, agent_id)), "run_id": s(run_id)}


def _item(episode: Episode) -> Item:
    e = episode
    pk = partition_key(e.tenant_id, e.agent_id)
    item: Item = {
        "pk": s(pk),
        "run_id": s(e.run_id),
        TENANT_KEY: s(tenant_prefix(e.tenant_id)),
        "tenant_id": s(e.tenant_id),
        "agent_id": s(e.agent_id),
        "task": s(e.task),
        "task_summary": s(e.task_summary),
        "outcome": s(e.outcome),
        "created_at": n(e.created_at),
        "expires_at": n(e.expires_at),
        "key_findings": strings(e.key_findings),
        "approach_used": s(e.approach_used),
        "tools_used": strings(e.tools_used),
        "reusable_patterns": strings(e.reusable_patterns),
    }
    put_optional(item, "task_type", e.task_type)
    put_optional(item, "domain", e.domain)
    if e.units:
        item["units"] = s(pack_units(e.units)[0])
    item.update({k: v for k, v in _vector_attributes(e).items() if v is not None})
    if e.outcome == _FAILED:
        item[FAILED_SHARD] = s(shard_key(_FAILED, shard_of(pk, e.run_id)))
    return item


def _episode(item: Item) -> Episode:
    return Episode(
        tenant_id=get_s(item, "tenant_id"),
        agent_id=get_s(item, "agent_id"),
        run_id=get_s(item, "run_id"),
        task=get_s(item, "task"),
        task_summary=get_s(item, "task_summary"),
        outcome=cast(Outcome, get_s(item, "outcome")),
        created_at=get_float(item, "created_at"),
        expires_at=get_float(item, "expires_at"),
        task_type=get_opt_s(item, "task_type"),
        domain=get_opt_s(item, "domain"),
        key_findings=get_strings(item, "key_findings"),
        approach_used=get_s(item, "approach_used"),
        tools_used=get_strings(item, "tools_used"),
        reusable_patterns=get_strings(item, "reusable_patterns"),
        embedding=get_vector(item),
        spare_embedding=get_vector(item, _SPARE),
        units=unpack_units(
            get_opt_s(item, "units") or "[]",
            *_unit_vectors(item, "unit"),
            _unit_vectors(item, "unit_spare"),
        ),
    )


def _vector_attributes(episode: Episode) -> dict[str, Any]:
    """Every vector attribute of the episode's item: a value, or None where it has none."""
    attributes: Item = {}
    put_vector(attributes, episode.embedding)
    put_vector(attributes, episode.spare_embedding, _SPARE)
    for prefix, packed in (
        ("unit", pack_units(episode.units)[1:]),
        ("unit_spare", pack_spare_units(episode.units)),
    ):
        model, dimension, blob = packed
        if blob is not None and model is not None and dimension is not None:
            attributes[f"{prefix}_model"] = s(model)
            attributes[f"{prefix}_dimension"] = n(dimension)
            attributes[f"{prefix}_vectors"] = b(blob)
    return {name: attributes.get(name) for name in _VECTOR_ATTRIBUTES}


def _unit_vectors(item: Item, prefix: str) -> PackedVectors:
    if f"{prefix}_vectors" not in item:
        return None, None, None
    return (
        get_s(item, f"{prefix}_model"),
        get_int(item, f"{prefix}_dimension"),
        bytes(item[f"{prefix}_vectors"]["B"]),
    )


def _token(item: Item | None) -> str:
    """An agent's version token from its version item (``"0"`` before its first change)."""
    if item is None:
        return "0"
    if "nonce" not in item:  # written before versions counted additions
        return get_s(item, "token")
    return f"{get_s(item, 'nonce')}.{get_int(item, 'added')}"


def _logged_since(item: Item | None, version: str, limit: int) -> list[str] | None:
    """Run ids the version item logs as added after ``version``, oldest first; None unless
    its nonce is still ``version``'s and its log holds every one of them (at most ``limit``).
    """
    nonce, _, count = version.partition(".")
    if item is None or "nonce" not in item or get_s(item, "nonce") != nonce:
        return None
    try:
        since = int(count)
    except ValueError:
        return None
    latest = get_int(item, "added")
    if not 0 <= latest - since <= min(limit, LOGGED_ADDITIONS):
        return None
    log = item.get("log", {}).get("M", {})
    run_ids = []
    for number in range(since + 1, latest + 1):
        entry = log.get(str(number % LOGGED_ADDITIONS), {}).get("M")
        if entry is None or get_int(entry, "n") != number:
            return None  # overwritten, or its write was lost
        run_ids.append(get_s(entry, "run_id"))
    return run_ids
