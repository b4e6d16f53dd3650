"""Ledger contract: JSON records by key, put-if-absent, expiry on read, prefix scans."""

from __future__ import annotations

from typing import Any

from agent_memory.core.ports import Ledger
from tests.contract.builders import AWKWARD_CONFIDENCE, DAY, NOW, in_threads
from tests.contract.conftest import Stores

VALUE: dict[str, Any] = {
    "status": "COMPLETED",
    "score": AWKWARD_CONFIDENCE,
    "count": 3,
    "big": 2**53 + 1,
    "flag": True,
    "nothing": None,
    "nested": {"list": [1, "two", 3.5, [], {}], "text": 'ünïcode 📦 "quoted"\n'},
}


def test_store_satisfies_the_port(ledger: Ledger) -> None:
    assert isinstance(ledger, Ledger)


def test_put_then_get_round_trips_the_value_exactly(ledger: Ledger) -> None:
    ledger.put("idem#acme#run-1", VALUE, now=NOW, expires_at=None)

    assert ledger.get("idem#acme#run-1", now=NOW) == VALUE


def test_get_of_a_missing_key_returns_none(ledger: Ledger) -> None:
    assert ledger.get("nope", now=NOW) is None


def test_add_writes_when_the_key_is_absent(ledger: Ledger) -> None:
    assert ledger.add("k", {"v": 1}, now=NOW, expires_at=None) is True
    assert ledger.get("k", now=NOW) == {"v": 1}


def test_add_of_an_existing_key_returns_false_and_keeps_the_record(ledger: Ledger) -> None:
    ledger.add("k", {"v": 1}, now=NOW, expires_at=NOW + DAY)

    assert ledger.add("k", {"v": 2}, now=NOW, expires_at=None) is False
    assert ledger.get("k", now=NOW) == {"v": 1}


def test_add_over_an_expired_record_writes(ledger: Ledger) -> None:
    ledger.add("k", {"v": 1}, now=NOW - DAY, expires_at=NOW)

    assert ledger.add("k", {"v": 2}, now=NOW, expires_at=None) is True
    assert ledger.get("k", now=NOW + 10 * DAY) == {"v": 2}


def test_concurrent_adds_of_one_key_write_exactly_once(ledger: Ledger) -> None:
    results = in_threads(
        lambda i: ledger.add("k", {"writer": i}, now=NOW, expires_at=None), range(16)
    )

    assert results.count(True) == 1
    assert ledger.get("k", now=NOW) == {"writer": results.index(True)}


def test_a_record_expiring_exactly_now_is_absent(ledger: Ledger) -> None:
    ledger.put("k", {"v": 1}, now=NOW - DAY, expires_at=NOW)

    assert ledger.get("k", now=NOW) is None


def test_a_record_expiring_after_now_is_present(ledger: Ledger) -> None:
    ledger.put("k", {"v": 1}, now=NOW, expires_at=NOW + 0.001)

    assert ledger.get("k", now=NOW) == {"v": 1}


def test_a_record_without_expiry_never_expires(ledger: Ledger) -> None:
    ledger.put("k", {"v": 1}, now=NOW, expires_at=None)

    assert ledger.get("k", now=NOW + 10_000 * DAY) == {"v": 1}


def test_put_replaces_the_value_and_the_expiry(ledger: Ledger) -> None:
    ledger.put("k", {"v": 1}, now=NOW, expires_at=NOW + 1)

    ledger.put("k", {"v": 2}, now=NOW, expires_at=None)

    assert ledger.get("k", now=NOW + DAY) == {"v": 2}


def test_delete_removes_the_record(ledger: Ledger) -> None:
    ledger.put("k", {"v": 1}, now=NOW, expires_at=None)

    ledger.delete("k")

    assert ledger.get("k", now=NOW) is None


def test_delete_of_a_missing_key_is_quiet(ledger: Ledger) -> None:
    ledger.delete("nope")


def test_scan_yields_exactly_the_keys_with_the_prefix(ledger: Ledger) -> None:
    for key in ["run#acme#1", "run#acme#2", "run#acme2#1", "run#acm", "run#acme", "run$", "x"]:
        ledger.put(key, {"key": key}, now=NOW, expires_at=None)

    scanned = dict(ledger.scan("run#acme#"))

    assert scanned == {"run#acme#1": {"key": "run#acme#1"}, "run#acme#2": {"key": "run#acme#2"}}


def test_scan_with_an_empty_prefix_yields_every_record(ledger: Ledger) -> None:
    for key in ["a", "b#1", "ü"]:
        ledger.put(key, {}, now=NOW, expires_at=None)

    assert sorted(k for k, _ in ledger.scan("")) == ["a", "b#1", "ü"]


def test_scan_yields_large_listings_completely(ledger: Ledger) -> None:
    for i in range(1_201):
        ledger.put(f"job#{i:05d}", {"i": i}, now=NOW, expires_at=None)
    ledger.put("jobz", {}, now=NOW, expires_at=None)

    scanned = list(ledger.scan("job#"))

    assert sorted(scanned, key=lambda kv: kv[0]) == [
        (f"job#{i:05d}", {"i": i}) for i in range(1_201)
    ]


def test_scan_allows_deleting_while_iterating(ledger: Ledger) -> None:
    for i in range(600):
        ledger.put(f"tenant#acme#{i:04d}", {}, now=NOW, expires_at=None)

    for key, _ in ledger.scan("tenant#acme#"):
        ledger.delete(key)

    assert list(ledger.scan("tenant#acme#")) == []


def test_purge_expired_removes_at_most_limit_and_never_a_live_record(stores: Stores) -> None:
    ledger = stores.ledger
    for i in range(3):
        ledger.put(f"run#acme#old-{i}", {"i": i}, now=NOW - DAY, expires_at=NOW - i)
    ledger.put("run#acme#live", {"i": 9}, now=NOW, expires_at=NOW + 1)
    ledger.put("_kb-ingestion#current", {"i": 10}, now=NOW, expires_at=None)

    purged = ledger.purge_expired(NOW, limit=2)

    assert 0 <= purged <= 2
    if stores.purges_expired:
        assert purged == 2
    assert ledger.get("run#acme#live", now=NOW) == {"i": 9}
    assert ledger.get("_kb-ingestion#current", now=NOW) == {"i": 10}
    assert len(list(ledger.scan("run#acme#"))) == 4 - purged
