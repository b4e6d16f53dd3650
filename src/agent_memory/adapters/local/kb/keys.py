"""Validation of S3-style document keys and of the path segments built from tenant ids."""

from __future__ import annotations

SIDECAR_SUFFIX = ".metadata.json"


def validate_key(key: str) -> str:
    """Return ``key`` if it is a safe relative S3-style key, else raise ``ValueError``.

    A key becomes a path under the documents folder, so anything that could climb out of it
    (absolute, ``..``, backslashes) or collide with the adapter's own files (sidecars, hidden
    temporary files) is refused.
    """
    problem = _key_problem(key)
    if problem is not None:
        raise ValueError(f"invalid document key {key!r}: {problem}")
    return key


def validate_segment(value: str, what: str) -> str:
    """Return ``value`` if it can be one path segment (a tenant id), else raise ``ValueError``."""
    if not value or "/" in value or "\\" in value or "\0" in value or value.startswith("."):
        raise ValueError(f"invalid {what} {value!r}: must be a single path segment")
    return value


def key_tenant(key: str) -> str | None:
    """Return the tenant named by the key's ``tenants/{tenant_id}/`` prefix, or None."""
    parts = key.split("/")
    if len(parts) >= 3 and parts[0] == "tenants":
        return parts[1]
    return None


def _key_problem(key: str) -> str | None:
    if not key:
        return "empty"
    if key.startswith("/"):
        return "absolute"
    if "\\" in key:
        return "contains a backslash"
    if ".." in key:
        return "contains '..'"
    if "\0" in key:
        return "contains a NUL character"
    if key.endswith(SIDECAR_SUFFIX):
        return f"ends with {SIDECAR_SUFFIX!r}, reserved for metadata sidecars"
    for segment in key.split("/"):
        if not segment:
            return "has an empty path segment"
        if segment.startswith("."):
            # Hidden names are where atomic writes keep their temporary files.
            return "has a path segment starting with '.'"
    return None
