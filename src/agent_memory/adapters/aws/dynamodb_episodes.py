"""Episodic memory in DynamoDB: one item per (``{tenant}#{agent}``, run_id), TTL on expires_at.

An episode within the product's bounds can outgrow DynamoDB's 400 KB item (300 units of 1,000
characters with 1,024-dim vectors, twice that while re-embedding). Such an episode keeps its
key, index and summary attributes in its item and moves its largest attributes (the units'
vectors, then their texts, then the longest lists) into *part* items under the same partition,
sort key ``{run_id}#part#{n}``: written in one transaction with the item, read back with it,
deleted with it, and expiring with it (parts carry the same ``expires_at``). Parts carry none
of the attributes an index or a listing selects on, so nothing lists them.
"""

from __future__ import annotations

import json
import math
import uuid
import zlib
from collections.abc import Iterator, Sequence
from typing import Any, cast

from agent_memory.adapters.aws.dynamodb_codec import (
    ITEM_LIMIT_BYTES,
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
    item_size,
    n,
    put_optional,
    put_vector,
    s,
    strings,
    translated,
    vector_update,
)
from agent_memory.adapters.aws.dynamodb_paging import (
    Listing,
    batch_delete,
    batch_get,
    count_values,
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
from agent_memory.core.model.episode_versions import EpisodeChanges, EpisodeVersion, changes_since
from agent_memory.core.model.errors import TransientError
from agent_memory.core.model.keys import KEY_SEPARATOR, partition_key, tenant_prefix
from agent_memory.core.model.models import Episode, Outcome
from agent_memory.core.ports import Page

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
# Each tenant's roster of agents with episodes: string sets in partition "{tenant}#" (no
# agent id is empty), so the tenant's keys keep their leading "{tenant}#". An item holds at
# most 400 KB ("Service, account, and table quotas in Amazon DynamoDB",
# https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html), some
# 3,000 agent ids of the longest: so the roster is ROSTER_SHARDS items, an agent on the one
# its id's CRC-32 names, all read in one BatchGetItem (at most 100 keys).
_ROSTER = "#agents"
ROSTER_SHARDS = 64
# How many of an agent's latest additions its version item logs (a few KB at most).
LOGGED_ADDITIONS = 32

# Overflow into part items. An item is split only above ITEM_BUDGET, which leaves room for the
# bookkeeping attributes and a margin against any rounding in the documented size rules.
ITEM_BUDGET = ITEM_LIMIT_BYTES - 8 * 1024
PART_BYTES = 384 * 1024
"""Payload bytes per part item (a part's key and bookkeeping take well under 1 KB more)."""
_PART = "#part#"
_PARTS = "parts"  # N: how many part items hold the moved attributes
_MOVED = "moved"  # S: JSON [[name, type, bytes], ...] of the moved attributes, payload order
_OVERFLOW_ID = "overflow_id"  # S: the same random id on the item and each of its parts
_DATA = "data"  # B: a part's slice of the payload
_OVERFLOW = (_PARTS, _MOVED, _OVERFLOW_ID)
# What an oversized item moves out, first to last: the largest, and least often read, first.
# Keys, index attributes, the summary, outcome and embeddings always stay in the item.
_MOVABLE = (
    "unit_spare_vectors",
    "unit_vectors",
    "units",
    "reusable_patterns",
    "tools_used",
    "key_findings",
    "approach_used",
    "task",
)
# The condition that the item exists and holds all its attributes itself (``#parts``: _PARTS).
_WHOLE_ITEM = "attribute_exists(pk) AND attribute_not_exists(#parts)"
# Reading an episode whose parts change meanwhile (a re-embedding) tries again this often.
_READ_ATTEMPTS = 5


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
        main, parts = split_item(_item(episode))
        # On the roster before its first episode is visible, so a tenant-wide read finds it.
        self._enrol(episode.tenant_id, episode.agent_id)
        put = {
            "TableName": self._table,
            "Item": main,
            "ConditionExpression": "attribute_not_exists(pk)",
        }
        try:
            with translated():
                if parts:
                    # All or nothing: an item is never visible without its parts.
                    self._client.transact_write_items(
                        TransactItems=[
                            {"Put": put},
                            *({"Put": {"TableName": self._table, "Item": p}} for p in parts),
                        ]
                    )
                else:
                    self._client.put_item(**put)
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
        whole = self._whole([item])
        return self._as_episode(whole[0]) if whole else None

    def recent(
        self,
        tenant_id: str,
        agent_id: str,
        *,
        now: float,
        limit: int,
        cursor: str | None = None,
        since: float | None = None,
        until: float | None = None,
    ) -> Page[Episode]:
        """The agent's unexpired episodes, newest first (``agent-time-index``, descending);
        ``[since, until)`` is a key condition on the index's sort key, ``created_at``.
        """
        window = _created_between(since, until)
        if window is None:
            return Page(())
        condition, values = window
        listing = Listing(
            design=EPISODES,
            table_name=self._table,
            kind="episodes.recent",
            partitions=(partition_key(tenant_id, agent_id),),
            index=EPISODES.index(AGENT_TIME_INDEX),
            range_condition=condition,
            filter="#expires_at > :now",
            names={"#expires_at": "expires_at"},
            values={":now": n(now), **values},
            forward=False,
        )
        page = read_page(self._client, listing, limit=limit, cursor=cursor)
        return Page(tuple(self._as_episode(i) for i in self._whole(page.items)), page.cursor)

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
        return Page(tuple(self._as_episode(i) for i in self._whole(page.items)), page.cursor)

    def delete(self, tenant_id: str, agent_id: str, run_id: str) -> bool:
        """Delete one episode (and its parts), expired or not; True if it existed."""
        key = _key(tenant_id, agent_id, run_id)
        deleted = False
        for _ in range(_READ_ATTEMPTS):
            with translated():
                found = self._client.get_item(
                    TableName=self._table,
                    Key=key,
                    ConsistentRead=True,
                    ProjectionExpression="#parts, #id",
                    ExpressionAttributeNames={"#parts": _PARTS, "#id": _OVERFLOW_ID},
                ).get("Item")
            if found is None:
                break  # perhaps a retry of a delete that was done but whose version did not move
            try:
                self._delete_with_parts(key, found)
            except ConditionFailed:
                continue  # deleted or re-split meanwhile: look again
            deleted = True
            break
        else:
            raise TransientError("episode changed under every attempt to delete it")
        self._rewritten(tenant_id, agent_id)
        return deleted

    def _delete_with_parts(self, key: Item, found: Item) -> None:
        """Delete the item ``found`` (its key and overflow bookkeeping) and its parts at once."""
        if _PARTS not in found:
            with translated():
                self._client.delete_item(
                    TableName=self._table,
                    Key=key,
                    ConditionExpression=_WHOLE_ITEM,
                    ExpressionAttributeNames={"#parts": _PARTS},
                )
            return
        with translated():
            self._client.transact_write_items(
                TransactItems=[
                    {
                        "Delete": {
                            "TableName": self._table,
                            "Key": key,
                            "ConditionExpression": "#id = :id",
                            "ExpressionAttributeNames": {"#id": _OVERFLOW_ID},
                            "ExpressionAttributeValues": {":id": found[_OVERFLOW_ID]},
                        }
                    },
                    *(
                        {"Delete": {"TableName": self._table, "Key": k}}
                        for k in _part_keys(key, get_int(found, _PARTS))
                    ),
                ]
            )

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

    def agents(self, tenant_id: str) -> list[str]:
        """The agents on the tenant's roster (every agent an episode was added for since the
        tenant was last forgotten), by one consistent BatchGetItem of its shards.
        """
        keys = _roster_keys(tenant_id)
        items = batch_get(self._client, self._table, ("pk", "run_id"), keys)
        return sorted(
            a for item in items if item and "agents" in item for a in item["agents"]["SS"]
        )

    def _enrol(self, tenant_id: str, agent_id: str) -> None:
        """Put the agent on its shard of the tenant's roster (idempotent)."""
        with translated():
            self._client.update_item(
                TableName=self._table,
                Key=_roster_key(tenant_id, roster_sort_key(agent_id)),
                UpdateExpression="ADD #agents :agent",
                ExpressionAttributeNames={"#agents": "agents"},
                ExpressionAttributeValues={":agent": {"SS": [agent_id]}},
            )

    def version(self, tenant_id: str, agent_id: str) -> str:
        """The agent's version item's random nonce (the epoch: new whenever an episode is
        deleted or rewritten, or the item is forgotten) and its count of additions.
        """
        return _version(self._version_item(tenant_id, agent_id)).token

    def versions(self, tenant_id: str, agent_ids: Sequence[str]) -> dict[str, str]:
        """Each agent's version token, from its version item: one consistent BatchGetItem
        (per 100 agents).
        """
        agents = list(dict.fromkeys(agent_ids))
        keys = [_key(tenant_id, agent, _VERSION) for agent in agents]
        found = batch_get(self._client, self._table, ("pk", "run_id"), keys) if keys else []
        return {agent: _version(item).token for agent, item in zip(agents, found, strict=True)}

    def changes_since(
        self, tenant_id: str, agent_id: str, version: str, *, now: float, limit: int
    ) -> EpisodeChanges:
        """The agent's version now, and the episodes its version item's log of the last
        additions names after ``version`` (the rule is ``episode_versions.changes_since``'s):
        one read of the version item, then only the new episodes, by key.
        """
        check_limit(limit)
        item = self._version_item(tenant_id, agent_id)

        def added_after(count: int, at_most: int) -> list[Episode] | None:
            run_ids = _logged_after(item, count, at_most)
            if run_ids is None:
                return None
            keys = [_key(tenant_id, agent_id, r) for r in dict.fromkeys(run_ids)]
            found = batch_get(self._client, self._table, ("pk", "run_id"), keys)
            live = [i for i in found if i is not None and get_float(i, "expires_at") > now]
            return [self._as_episode(i) for i in self._whole(live)]

        return changes_since(_version(item), version, now=now, limit=limit, added_after=added_after)

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
        return Page(tuple(self._as_episode(i) for i in self._whole(page.items)), page.cursor)

    def set_vectors(self, episode: Episode) -> bool:
        """Replace the episode's vectors (both slots) if it exists with the same units.

        An item that stays within one item is updated in place; one that is, or becomes,
        split into parts (spare vectors make it grow) is rewritten with its parts at once.
        """
        key = _key(episode.tenant_id, episode.agent_id, episode.run_id)
        vector_attributes = _vector_attributes(episode)
        units = s(pack_units(episode.units)[0]) if episode.units else None
        if not split_item(_item(episode))[1]:
            update = vector_update(vector_attributes)
            update["ExpressionAttributeNames"] |= {"#units": "units", "#parts": _PARTS}
            # An episode without units is stored without the attribute.
            same_units = "attribute_not_exists(#units)"
            if units is not None:
                same_units = "#units = :units"
                update["ExpressionAttributeValues"][":units"] = units
            if not update["ExpressionAttributeValues"]:
                del update["ExpressionAttributeValues"]
            try:
                with translated():
                    self._client.update_item(
                        TableName=self._table,
                        Key=key,
                        ConditionExpression=f"{_WHOLE_ITEM} AND {same_units}",
                        **update,
                    )
            except ConditionFailed:
                pass  # absent, other units, or stored in parts: read it to know which
            else:
                self._rewritten(episode.tenant_id, episode.agent_id)
                return True
        for _ in range(_READ_ATTEMPTS):
            found = self._read_split(key)
            if found is None or found[1].get("units") != units:
                return False
            stored, whole = found
            rewritten = {
                name: value for name, value in whole.items() if name not in vector_attributes
            } | {name: value for name, value in vector_attributes.items() if value is not None}
            try:
                self._replace(key, stored, rewritten)
            except ConditionFailed:
                continue  # rewritten or deleted meanwhile: read it again
            self._rewritten(episode.tenant_id, episode.agent_id)
            return True
        raise TransientError("episode changed under every attempt to set its vectors")

    def rewrite(self, episode: Episode) -> bool:
        """Read the whole item, then write it whole with the episode's texts and vectors (its
        parts with it), if it is still what was read.
        """
        key = _key(episode.tenant_id, episode.agent_id, episode.run_id)
        given = _item(episode)
        texts = {name: given.get(name) for name in _TEXT_ATTRIBUTES}
        for _ in range(_READ_ATTEMPTS):
            found = self._read_split(key)
            if found is None:
                return False
            stored, whole = found
            replaced = (*_TEXT_ATTRIBUTES, *_VECTOR_ATTRIBUTES)
            rewritten = {name: value for name, value in whole.items() if name not in replaced}
            rewritten |= {name: value for name, value in texts.items() if value is not None}
            rewritten |= {
                name: value for name, value in _vector_attributes(episode).items() if value
            }
            try:
                self._replace(key, stored, rewritten)
            except ConditionFailed:
                continue  # rewritten or deleted meanwhile: read it again
            self._rewritten(episode.tenant_id, episode.agent_id)
            return True
        raise TransientError("episode changed under every attempt to rewrite it")

    def _replace(self, key: Item, stored: Item, item: Item) -> None:
        """Write the whole ``item`` over ``stored`` (as stored: its overflow bookkeeping tells
        its parts), parts included, if ``stored`` is still what is stored.
        """
        main, parts = split_item(item)
        if _OVERFLOW_ID in stored:
            condition: dict[str, Any] = {
                "ConditionExpression": "#id = :id",
                "ExpressionAttributeNames": {"#id": _OVERFLOW_ID},
                "ExpressionAttributeValues": {":id": stored[_OVERFLOW_ID]},
            }
        else:
            condition = {
                "ConditionExpression": _WHOLE_ITEM,
                "ExpressionAttributeNames": {"#parts": _PARTS},
            }
        put = {"TableName": self._table, "Item": main, **condition}
        stale = _part_keys(key, get_int(stored, _PARTS) if _PARTS in stored else 0)[len(parts) :]
        with translated():
            if not parts and not stale:
                self._client.put_item(**put)
                return
            self._client.transact_write_items(
                TransactItems=[
                    {"Put": put},
                    *({"Put": {"TableName": self._table, "Item": p}} for p in parts),
                    *({"Delete": {"TableName": self._table, "Key": k}} for k in stale),
                ]
            )

    def _whole(self, items: Sequence[Item]) -> list[Item]:
        """``items`` with the attributes their parts hold put back, in the same order.

        Parts are read by key, consistently; an item whose parts no longer match it (an index
        copy older than a rewrite) is read again by key, and left out if it is gone.
        """
        split = [item for item in items if _PARTS in item]
        if not split:
            return list(items)
        keys = [k for item in split for k in _part_keys(_key_of(item), get_int(item, _PARTS))]
        found = batch_get(self._client, self._table, EPISODES.key_names, keys)
        parts = {get_s(p, "run_id"): p for p in found if p is not None}
        whole: list[Item] = []
        for item in items:
            if _PARTS not in item:
                whole.append(item)
                continue
            joined = join_item(
                item,
                [parts.get(get_s(k, "run_id")) for k in _part_keys(item, get_int(item, _PARTS))],
            )
            if joined is None:
                joined = self._read_whole(_key_of(item))
            if joined is not None:
                whole.append(joined)
        return whole

    def _read_whole(self, key: Item) -> Item | None:
        """The item with this key, its parts put back; None if there is none."""
        found = self._read_split(key)
        return found[1] if found is not None else None

    def _read_split(self, key: Item) -> tuple[Item, Item] | None:
        """``(item as stored, whole item)`` of this key; None if there is none."""
        for _ in range(_READ_ATTEMPTS):
            with translated():
                item = self._client.get_item(
                    TableName=self._table, Key=key, ConsistentRead=True
                ).get("Item")
            if item is None:
                return None
            if _PARTS not in item:
                return item, item
            keys = _part_keys(key, get_int(item, _PARTS))
            joined = join_item(item, batch_get(self._client, self._table, EPISODES.key_names, keys))
            if joined is not None:
                return item, joined
        raise TransientError("episode changed under every attempt to read it")

    def purge_expired(self, now: float, *, limit: int) -> int:
        """Return 0: DynamoDB's TTL deletes expired episodes (reads already hide them)."""
        del now, limit
        return 0

    def export(self, tenant_id: str) -> Iterator[Episode]:
        """Every stored episode of the tenant, expired or not (``tenant-index``, read by key)."""
        listing = self._tenant_listing(tenant_id, hydrate=True)
        for item in read_all(self._client, listing):
            for whole in self._whole([item]):
                yield self._as_episode(whole)

    def forget(self, tenant_id: str) -> int:
        """Delete every episode of the tenant; the number of episodes found and deleted.

        The tenant index and the roster find the tenant's agents; each agent's partition is
        then deleted whole (its episodes, their parts and its version item), then the roster.
        """
        listing = self._tenant_listing(tenant_id, hydrate=False)
        agents = sorted(
            {get_s(item, "pk") for item in read_all(self._client, listing)}
            # The roster also names agents left with a version item and no episode.
            | {partition_key(tenant_id, agent) for agent in self.agents(tenant_id)}
        )
        deleted = 0
        for pk in agents:
            keys = list(self._partition_keys(pk))
            # Parts and the version item have a '#' in their sort key; run ids never do.
            deleted += sum(KEY_SEPARATOR not in get_s(k, "run_id") for k in keys)
            batch_delete(self._client, self._table, keys)
        batch_delete(self._client, self._table, _roster_keys(tenant_id))
        return deleted

    def _partition_keys(self, pk: str) -> Iterator[Item]:
        """The key of every item in one agent's partition."""
        request: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "#pk = :pk",
            "ProjectionExpression": "#pk, #rk",
            "ExpressionAttributeNames": {"#pk": "pk", "#rk": "run_id"},
            "ExpressionAttributeValues": {":pk": s(pk)},
            "ConsistentRead": True,
        }
        while True:
            with translated():
                response = self._client.query(**request)
            yield from response["Items"]
            if "LastEvaluatedKey" not in response:
                return
            request["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def _tenant_listing(self, tenant_id: str, *, hydrate: bool) -> Listing:
        return Listing(
            design=EPISODES,
            table_name=self._table,
            kind="episodes.tenant",
            partitions=(tenant_prefix(tenant_id),),
            index=EPISODES.index(TENANT_INDEX),
            hydrate=hydrate,
        )


def roster_sort_key(agent_id: str) -> str:
    """The sort key of the roster shard that lists ``agent_id`` (in partition ``{tenant}#``)."""
    return _roster_sort_key(zlib.crc32(agent_id.encode()) % ROSTER_SHARDS)


def _roster_sort_key(shard: int) -> str:
    return f"{_ROSTER}#{shard:02d}"


def _roster_key(tenant_id: str, sort_key: str) -> Item:
    return {"pk": s(tenant_prefix(tenant_id)), "run_id": s(sort_key)}


def _roster_keys(tenant_id: str) -> list[Item]:
    return [_roster_key(tenant_id, _roster_sort_key(k)) for k in range(ROSTER_SHARDS)]


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


def split_item(item: Item) -> tuple[Item, list[Item]]:
    """``(item, parts)``: the item as written and the part items it needs (none if it fits).

    Above :data:`ITEM_BUDGET` (DynamoDB's own size rules, :func:`item_size`), the attributes of
    :data:`_MOVABLE` leave the item in that order until it fits; their values, concatenated,
    are cut into parts of :data:`PART_BYTES`.
    """
    if item_size(item) <= ITEM_BUDGET:
        return item, []
    main = dict(item)
    moved: list[tuple[str, str, bytes]] = []
    for name in _MOVABLE:
        if item_size(main) <= ITEM_BUDGET:
            break
        if name in main:
            moved.append((name, *_encoded(main.pop(name))))
    payload = b"".join(data for _, _, data in moved)
    chunks = [payload[i : i + PART_BYTES] for i in range(0, len(payload), PART_BYTES)]
    overflow_id = s(uuid.uuid4().hex)
    main[_PARTS] = n(len(chunks))
    main[_MOVED] = s(json.dumps([[name, kind, len(data)] for name, kind, data in moved]))
    main[_OVERFLOW_ID] = overflow_id
    key = _key_of(item)
    parts = [
        {**part_key, "expires_at": item["expires_at"], _OVERFLOW_ID: overflow_id, _DATA: b(chunk)}
        for part_key, chunk in zip(_part_keys(key, len(chunks)), chunks, strict=True)
    ]
    return main, parts


def join_item(item: Item, parts: Sequence[Item | None]) -> Item | None:
    """Inverse of :func:`split_item`: the whole item, or None unless every part is there and
    of this item's split (a rewrite gives the item and its parts a new overflow id).
    """
    if any(p is None or p.get(_OVERFLOW_ID) != item[_OVERFLOW_ID] for p in parts):
        return None
    payload = b"".join(bytes(p[_DATA]["B"]) for p in parts if p is not None)
    whole = {name: value for name, value in item.items() if name not in _OVERFLOW}
    offset = 0
    for name, kind, length in json.loads(get_s(item, _MOVED)):
        whole[name] = _decoded(kind, payload[offset : offset + length])
        offset += length
    return whole


def _encoded(value: Item) -> tuple[str, bytes]:
    """``(type, bytes)`` of a movable attribute value: a string, a binary or a string list."""
    ((kind, data),) = value.items()
    if kind == "S":
        return kind, str(data).encode()
    if kind == "B":
        return kind, bytes(data)
    if kind == "L":
        return kind, json.dumps([v["S"] for v in data], ensure_ascii=False).encode()
    raise ValueError(f"attribute type {kind} cannot move to a part")


def _decoded(kind: str, data: bytes) -> Item:
    if kind == "S":
        return s(data.decode())
    if kind == "B":
        return b(data)
    return strings(json.loads(data.decode()))


def _key_of(item: Item) -> Item:
    return {"pk": item["pk"], "run_id": item["run_id"]}


def _part_keys(key: Item, count: int) -> list[Item]:
    """Keys of an item's parts: ``{run_id}#part#{n}`` (a run id never holds '#')."""
    run_id = get_s(key, "run_id")
    return [{"pk": key["pk"], "run_id": s(f"{run_id}{_PART}{i}")} for i in range(count)]


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


_TEXT_ATTRIBUTES = (
    "task",
    "task_summary",
    "key_findings",
    "approach_used",
    "tools_used",
    "reusable_patterns",
    "units",
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


def _version(item: Item | None) -> EpisodeVersion:
    """An agent's version from its version item (an empty epoch before its first change)."""
    if item is None:
        return EpisodeVersion("", 0)
    return EpisodeVersion(get_s(item, "nonce"), get_int(item, "added"))


def _logged_after(item: Item | None, count: int, at_most: int) -> list[str] | None:
    """Run ids the version item logs as added after its ``count``-th addition, oldest first;
    None unless its log still holds every one of them and there are at most ``at_most``.
    """
    latest = 0 if item is None else get_int(item, "added")
    if latest - count > min(at_most, LOGGED_ADDITIONS):
        return None
    log = {} if item is None else item.get("log", {}).get("M", {})
    run_ids = []
    for number in range(count + 1, latest + 1):
        entry = log.get(str(number % LOGGED_ADDITIONS), {}).get("M")
        if entry is None or get_int(entry, "n") != number:
            return None  # overwritten, or its write was lost
        run_ids.append(get_s(entry, "run_id"))
    return run_ids


def _created_between(
    since: float | None, until: float | None
) -> tuple[str | None, dict[str, Item]] | None:
    """The key condition on ``created_at`` (``#rk``) for ``[since, until)``, and its values;
    None when the window is empty.

    A key condition takes one comparison of the sort key, so both ends are ``BETWEEN`` since
    and the float just below until: every ``created_at`` is a float written exactly
    (``Decimal(repr(x))``, whose order is the floats' order), so ``< until`` and ``<=`` that
    float select the same episodes.
    """
    if since is not None and until is not None:
        last = math.nextafter(until, -math.inf)
        if since > last:
            return None
        return "#rk BETWEEN :since AND :last", {":since": n(since), ":last": n(last)}
    if since is not None:
        return "#rk >= :since", {":since": n(since)}
    if until is not None:
        return "#rk < :until", {":until": n(until)}
    return None, {}
