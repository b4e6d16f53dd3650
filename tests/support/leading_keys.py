"""A DynamoDB client that enforces, as IAM would, a session narrowed by dynamodb:LeadingKeys.

moto does not evaluate IAM policies; wrapping the tenant's client in this guard makes a test
fail exactly where AWS would answer AccessDenied to a tenant-scoped session.
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

_KEY_NAMES = ("pk", "key")


class LeadingKeysGuard:
    """Refuses any request whose partition key does not start with ``f"{tenant}#"``."""

    def __init__(self, client: Any, tenant_id: str) -> None:
        self._client = client
        self._prefix = f"{tenant_id}#"
        self.checked = 0

    def __getattr__(self, name: str) -> Any:
        operation = getattr(self._client, name)
        if not callable(operation) or name in {"get_paginator", "can_paginate", "close"}:
            return operation

        def call(**request: Any) -> Any:
            self._check(name, request)
            return operation(**request)

        return call

    def _check(self, operation: str, request: dict[str, Any]) -> None:
        if operation == "scan":
            self._deny(operation, "a Scan names no leading key")
        for value in self._partition_values(operation, request):
            self.checked += 1
            if not value.startswith(self._prefix):
                self._deny(operation, f"partition key {value!r}")

    def _partition_values(self, operation: str, request: dict[str, Any]) -> list[str]:
        if operation == "query":
            return [request["ExpressionAttributeValues"][":pk"]["S"]]
        if operation in {"get_item", "delete_item", "update_item"}:
            return [_pk(request["Key"])]
        if operation == "put_item":
            return [_pk(request["Item"])]
        if operation == "transact_write_items":
            found = []
            for item in request["TransactItems"]:
                (action,) = item.values()
                found.append(_pk(action.get("Key") or action["Item"]))
            return found
        if operation == "batch_get_item":
            return [_pk(k) for table in request["RequestItems"].values() for k in table["Keys"]]
        if operation == "batch_write_item":
            return [
                _pk(w.get("DeleteRequest", {}).get("Key") or w["PutRequest"]["Item"])
                for table in request["RequestItems"].values()
                for w in table
            ]
        return []

    def _deny(self, operation: str, why: str) -> None:
        raise ClientError(
            {"Error": {"Code": "AccessDeniedException", "Message": f"LeadingKeys: {why}"}},
            operation,
        )


def _pk(key: dict[str, Any]) -> str:
    for name in _KEY_NAMES:
        if name in key:
            return str(key[name]["S"])
    raise AssertionError(f"no partition key in {key}")
