"""Credentials never stored: keys, tokens and passwords an agent read in tool output are scrubbed
before any write, locally and on the AWS path, by the credential detector the wiring puts beside
the PII detector (detect-secrets' plugins, docs/pii.md); ordinary technical text keeps its SHAs,
UUIDs and hashes.
"""

from __future__ import annotations

import base64
import json
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from agent_memory.adapters.local.pii import LocalPiiDetector
from agent_memory.adapters.secrets import CredentialDetector
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.core.workflows.tenants import export_tenant
from agent_memory.wiring.local import DATABASE_FILE, local_ports
from agent_memory.wiring.local_settings import LocalSettings
from tests.resilience.aws_lambdas import aws_memory
from tests.support.embedder import HashingEmbedder
from tests.support.ledger import ledger_values
from tests.support.memory import HASHING_CALIBRATION, Clock, run_event


def _key_body() -> list[str]:
    encoded = base64.b64encode(random.Random(17).randbytes(600)).decode()
    return [encoded[i : i + 64] for i in range(0, len(encoded), 64)]


KEY_BODY = _key_body()


@dataclass(frozen=True)
class Secret:
    """A credential as it appears in ``text``; ``value`` and its ``parts`` must never be
    stored."""

    kind: str
    value: str
    text: str
    parts: tuple[str, ...] = ()


SECRETS = (
    Secret(
        "aws access key",
        "AKIAZ3MHALF7QW2EXD4N",
        "Billing export failed; the customer's script sets AWS_ACCESS_KEY_ID=AKIAZ3MHALF7QW2EXD4N.",
    ),
    Secret(
        "aws secret key",
        "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",
        "and aws_secret_access_key = q8Jd2kLx9PzR4tVb7NcW1mYe5HsA3fGu6KiO0pTn in "
        "~/.aws/credentials",
    ),
    Secret(
        "stripe key",
        "sk_live_51Hq8ZxL3kR9vT2mN7pW4yBc",
        "Refund retried with the live key sk_live_51Hq8ZxL3kR9vT2mN7pW4yBc from the billing vault.",
    ),
    Secret(
        "github token",
        "ghp_R8tLq2Zx9KmV4wN7pB3cY6hJ1sD5fG0aE2uT",
        "CI clones with https://ghp_R8tLq2Zx9KmV4wN7pB3cY6hJ1sD5fG0aE2uT@github.com/acme/api.git",
    ),
    Secret(
        "slack token",
        "xoxb-2048193377-1038471920384-Xh3kR9qLmN2pV7wT5yZcB8dF",
        "The alert bot posts with token xoxb-2048193377-1038471920384-Xh3kR9qLmN2pV7wT5yZcB8dF.",
    ),
    Secret(
        "private key",
        KEY_BODY[3],
        "The deploy host's key, pasted by the customer:\n-----BEGIN RSA PRIVATE KEY-----\n"
        + "\n".join(KEY_BODY)
        + "\n-----END RSA PRIVATE KEY-----\nPlease rotate it.",
        tuple(KEY_BODY),
    ),
    Secret(
        "jwt",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjdXN0LTQ0MiIsInJvbGUiOiJhZG1pbiJ9."
        "Zr8mK3xQ9vL2pT7wN4bY6cH1sD5fG0aE2uJkRq8Xw3M",
        "Support replayed the request with Authorization: Bearer "
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjdXN0LTQ0MiIsInJvbGUiOiJhZG1pbiJ9."
        "Zr8mK3xQ9vL2pT7wN4bY6cH1sD5fG0aE2uJkRq8Xw3M and got a 403.",
        # The signature on its own would let no one forge, but it is the token's secret part.
        ("Zr8mK3xQ9vL2pT7wN4bY6cH1sD5fG0aE2uJkRq8Xw3M",),
    ),
    Secret(
        "postgres password",
        "Wint3r-Is-C0ming",
        "Migration ran against postgres://billing_app:Wint3r-Is-C0ming@db.acme.internal:5432/ledger",
    ),
    Secret("password assignment", "hunter2", "From the config file: password: hunter2"),
    Secret(
        "password in prose",
        "Tr0ub4dor&3",
        "On the call the customer said the admin password is Tr0ub4dor&3 and asked us to log in.",
    ),
    Secret(
        "api key",
        "9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c",
        "Their integration still sends api_key=9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c on every call.",
    ),
)


def leaks(blob: bytes) -> list[str]:
    """The kinds of secret found in ``blob``, as written or JSON-escaped."""
    found = []
    for secret in SECRETS:
        forms = {
            form
            for value in (secret.value, *secret.parts)
            for form in (value.encode(), json.dumps(value)[1:-1].encode())
        }
        if any(form in blob for form in forms):
            found.append(secret.kind)
    return found


def dump(value: Any) -> bytes:
    """``value`` as JSON, bytes (DynamoDB binaries, an episode's overflow parts) as their text."""
    return json.dumps(value, default=lambda data: bytes(data).decode("utf-8", "replace")).encode()


def credential_event(run_id: str) -> dict[str, Any]:
    """A support/billing/engineering run whose messages, findings, facts and procedure quote
    every secret of the corpus.
    """
    texts = [s.text for s in SECRETS]
    event = run_event(run_id)
    event["messages"] = [
        {"role": "human" if i % 2 else "ai", "content": text} for i, text in enumerate(texts)
    ]
    artifacts = event["artifacts"]
    artifacts["key_findings"] = texts
    artifacts["approach_used"] = " ".join(texts)
    artifacts["facts"] = [{"content": text, "confidence": 0.9} for text in texts]
    artifacts["procedure"] = {"title": "Rotate leaked credentials", "steps": texts}
    return event


def test_the_corpus_holds_every_secret_it_names() -> None:
    # Given the corpus, When its texts are searched, Then each secret value is in them (so the
    # tests below would see a leak).
    assert leaks("\n".join(s.text for s in SECRETS).encode()) == [s.kind for s in SECRETS]


def test_no_credential_reaches_a_local_store(tmp_path: Path) -> None:
    # Given a local store wired as the CLI wires it, with the real local PII detector
    ports = local_ports(
        LocalSettings(store=tmp_path), embedder=HashingEmbedder(), pii=LocalPiiDetector()
    )
    ports = replace(
        ports,
        clock=Clock(),
        calibrations={**ports.calibrations, "test-hashing": HASHING_CALIBRATION},
    )
    # When a run quoting every credential is consolidated
    consolidate(credential_event("cred-run-1"), ports)
    # Then no secret is in any stored record, nor in any file of the store
    records = [*export_tenant(ports, "acme"), *ledger_values(ports)]
    assert records
    assert leaks(dump(records)) == []
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name.startswith(DATABASE_FILE) for p in files)
    assert leaks(b"\n".join(p.read_bytes() for p in files)) == []


def test_no_credential_reaches_dynamodb_or_s3() -> None:
    # Given the Lambda handlers on moto, with the local detector as their PII port
    with aws_memory(LocalPiiDetector()) as aws:
        # When a run quoting every credential goes through the consolidation steps
        aws.consolidate(credential_event("cred-run-aws"))
        items, objects = aws.items(), aws.objects()
    # Then no secret is in any DynamoDB item or S3 object
    assert items
    assert leaks(dump(items)) == []
    assert leaks(b"\n".join([dump(sorted(objects)), *objects.values()])) == []


@pytest.mark.parametrize("secret", SECRETS, ids=[s.kind for s in SECRETS])
def test_the_credential_detector_covers_the_whole_secret_value(secret: Secret) -> None:
    # Given a text quoting a secret
    # When the credential detector reads it
    found = CredentialDetector().detect(secret.text)
    # Then some span covers every character of the secret value
    start = secret.text.index(secret.value)
    stop = start + len(secret.value)
    assert any(e.begin <= start and e.end >= stop for e in found), [
        (e.type, secret.text[e.begin : e.end]) for e in found
    ]


def test_an_assignment_keeps_its_key_and_loses_its_value() -> None:
    # Given "password: hunter2"
    text = "password: hunter2"
    # When the credential detector reads it
    [entity] = CredentialDetector().detect(text)
    # Then the value is the secret, not the word "password"
    assert text[entity.begin : entity.end] == "hunter2"


# Ordinary engineering and contract text: no credential in it.
ORDINARY = (
    "The regression came in with commit 3f9a1c0b2d4e5f60718293a4b5c6d7e8f9012345; reverting it "
    "restored the p99 latency.",
    "Request 123e4567-e89b-12d3-a456-426614174000 timed out after 30 seconds at the gateway.",
    "The thumbnail is served from https://cdn.example.com/img/"
    "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=.png with a one-year cache.",
    "Reset your password: click the link in the email we sent, then sign in again.",
    "The password is stored in Vault, and the token expires after 30 minutes.",
    "Set password = os.environ['DB_PASSWORD'] and secret: ${API_SECRET} in the chart values.",
    "The secretary circulated the minutes; the secret of the fix was a smaller batch size.",
    "def tokenize(text: str) -> list[str]:\n    return [t for t in text.split() if len(t) > 2]",
    "Use the auth token from settings; the session id is rotated hourly by the gateway.",
    "Clause 7.3 caps liability at 0.5x fees; the indemnity in clause 9 is uncapped.",
    "Run `pip install detect-secrets==1.5.0` and then `pytest -q tests/unit` to check.",
    "The image digest sha256:9b2a4c6e8f0d1b3a5c7e9f1d3b5a7c9e1f3d5b7a9c1e3f5d7b9a1c3e5f7d9b1a "
    "matches the release notes.",
    "Kubernetes restarted pod api-7d9f8c6b5-x2lqp three times; the liveness probe was too strict.",
    "Invoice INV-2026-0042 was paid by wire on 3 March; the balance is zero.",
    "The API key rotation runbook is in docs/runbooks/rotate.md, step 4.",
    "Our build cache key is the hash of poetry.lock and the Python version.",
)


def test_ordinary_technical_text_keeps_its_shas_uuids_and_hashes() -> None:
    # Given ordinary text with a git SHA, a UUID and a base64 hash in a URL
    detector = CredentialDetector()
    kept = [
        "3f9a1c0b2d4e5f60718293a4b5c6d7e8f9012345",
        "123e4567-e89b-12d3-a456-426614174000",
        "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
    ]
    for text, value in zip(ORDINARY, kept, strict=False):
        # When the credential detector reads it
        found = detector.detect(text)
        # Then none of them is taken for a credential
        assert found == [], (value, [text[e.begin : e.end] for e in found])


def test_the_credential_detector_scrubs_at_most_one_percent_of_ordinary_text() -> None:
    # Given a small corpus of ordinary engineering, support and contract text
    detector = CredentialDetector()
    total = sum(len(text) for text in ORDINARY)
    # When the credential detector reads each text
    taken = sum(e.end - e.begin for text in ORDINARY for e in detector.detect(text))
    # Then at most 1% of the characters would be scrubbed
    assert taken / total <= 0.01, f"{taken} of {total} characters"
