"""Credentials by their shape: provider tokens by prefix (CredSweeper's rule set, read from the
installed package), auth headers, connection strings, private keys and unlabeled AWS secret
keys, each scrubbed whole; hashes, SHAs, UUIDs, base64 data and identifiers are kept."""

from __future__ import annotations

import base64
import hashlib
import random
import string
import subprocess
import sys
import uuid

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from agent_memory.adapters.credentials import CredentialDetector, rules

DETECTOR = CredentialDetector()
ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "_-"

# (provider, prefix, body alphabet, body length, suffix): token formats as their providers
# document them. The bodies are drawn at random.
PREFIXED = (
    ("Anthropic", "sk-ant-api03-", URLSAFE, 93, "AA"),
    ("HashiCorp Vault", "hvs.", URLSAFE, 90, ""),
    ("GitHub fine-grained", "github_pat_", ALNUM + "_", 82, ""),
    ("GitHub classic", "ghp_", ALNUM, 36, ""),
    ("GitLab", "glpat-", URLSAFE, 20, ""),
    ("Google OAuth access", "ya29.", URLSAFE, 60, ""),
    ("Slack bot", "xoxb-2048193377-1038471920384-", ALNUM, 24, ""),
    ("Stripe", "sk_live_", ALNUM, 24, ""),
    ("DigitalOcean", "dop_v1_", "0123456789abcdef", 64, ""),
    ("Hugging Face", "hf_", ALNUM, 34, ""),
    ("Docker Hub", "dckr_pat_", URLSAFE, 27, ""),
    ("Perplexity", "pplx-", ALNUM, 48, ""),
    ("Linear", "lin_api_", ALNUM, 40, ""),
    ("Age", "AGE-SECRET-KEY-1", string.ascii_uppercase + "0123456789", 58, ""),
)
# Prose and markup an agent reads: "{}" is where the token stands.
SETTINGS = (
    "Use {} to push the release.",
    "token={}",
    'export API_TOKEN="{}"',
    "- the key `{}` was rotated yesterday",
)


def random_body(seed: int, alphabet: str, size: int) -> str:
    return "".join(random.Random(seed).choices(alphabet, k=size))


def covering(text: str, value: str) -> list[str]:
    """The labels of the finds that cover ``value`` whole."""
    start = text.index(value)
    return [
        e.type for e in DETECTOR.detect(text) if e.begin <= start and e.end >= start + len(value)
    ]


@pytest.mark.parametrize(("provider", "prefix", "alphabet", "size", "suffix"), PREFIXED)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), setting=st.sampled_from(SETTINGS))
def test_a_provider_token_is_scrubbed_whole_wherever_it_stands(
    provider: str, prefix: str, alphabet: str, size: int, suffix: str, seed: int, setting: str
) -> None:
    # Given a provider's token with a random body, in prose, an assignment or markup
    token = prefix + random_body(seed, alphabet, size) + suffix
    text = setting.format(token)
    # When the detector reads it, Then one find covers the whole token (not its prefix alone)
    assert covering(text, token), (provider, text)


def test_the_issues_samples_are_scrubbed_whole() -> None:
    # Given the kinds a fresh corpus showed surviving, with bodies of our own
    body = random_body(7, URLSAFE, 90)
    samples = {
        "key sk-ant-api03-" + body[:93] + "AA here": "sk-ant-api03-" + body[:93] + "AA",
        "VAULT_TOKEN=hvs." + body: "hvs." + body,
        "Authorization: Bearer ya29." + body[:60]: "ya29." + body[:60],
        "push with github_pat_11" + random_body(8, ALNUM, 80) + " please": "github_pat_11"
        + random_body(8, ALNUM, 80),
        "the secret is wJalrXUtnFEMI/K7MDENG/bPxRfiCY8XAMPL3K3Y ok": (
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCY8XAMPL3K3Y"
        ),
    }
    for text, value in samples.items():
        # When each is read, Then the whole value is covered, not three characters of it
        assert covering(text, value), text


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_an_unlabeled_aws_secret_key_is_scrubbed(seed: int) -> None:
    # Given a 40-character AWS secret access key alone in a line of output
    key = random_body(seed, ALNUM + "/+", 40)
    assume(all(any(c in group for c in key) for group in (string.ascii_uppercase,)))
    assume(any(c.islower() for c in key) and any(c.isdigit() for c in key))
    text = f"aws configure set: {key}"
    # When it is read, Then it is found whole
    assert covering(text, key), text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "curl -H 'Authorization: Basic YWRtaW46czNjcjN0LXBhc3M=' https://x",
            "YWRtaW46czNjcjN0LXBhc3M=",
        ),
        ('-H "X-Api-Key: 9f8a7b6c5d4e3f2a1b0c"', "9f8a7b6c5d4e3f2a1b0c"),
        ("Authorization: token 1q2w3e4r5t6y7u8i9o0p", "1q2w3e4r5t6y7u8i9o0p"),
        ("mongodb+srv://app:Wint3r-Is-C0ming@cluster0.example.net/db", "Wint3r-Is-C0ming"),
        ("amqp://guest:hunter22@mq:5672/", "hunter22"),
        ("Server=db;User Id=app;Password=s3cr3t!x;Database=orders", "s3cr3t!x"),
        ("jdbc:postgresql://db:5432/x?user=app&password=Hunter22&ssl=true", "Hunter22"),
        ("curl -u admin:P4ssw0rd! https://api.example.com", "P4ssw0rd!"),
        ("<password>Tr0ub4dor&amp;3</password>", "Tr0ub4dor&amp;3"),
    ],
)
def test_headers_and_connection_strings_lose_their_secret(text: str, value: str) -> None:
    # Given a header or a connection string that carries a secret
    # When it is read, Then the secret is covered whole and the user and host are kept
    found = DETECTOR.detect(text)
    start = text.index(value)
    assert any(e.begin <= start and e.end >= start + len(value) for e in found), found
    assert all(e.end - e.begin <= len(value) + 2 for e in found), found


@settings(max_examples=60, deadline=None)
@given(data=st.binary(min_size=1, max_size=200), name=st.uuids())
def test_hashes_shas_uuids_and_base64_data_are_kept(data: bytes, name: uuid.UUID) -> None:
    # Given ordinary technical text with digests, a UUID and inline base64 image data
    text = (
        f"commit {hashlib.sha1(data).hexdigest()} fixed it;"
        f" sha256 {hashlib.sha256(data).hexdigest()}"
        f" request {name} failed; ![x](data:image/png;base64,{base64.b64encode(data * 3).decode()})"
        f" integrity sha512-{base64.b64encode(hashlib.sha512(data).digest()).decode()}"
    )
    # When it is read, Then nothing is found
    assert DETECTOR.detect(text) == [], text


@pytest.mark.parametrize(
    "text",
    [
        "The template reads token: ${API_TOKEN} and password: <password>.",
        "Set GITLAB_TOKEN=glpat-XXXXXXXXXXXXXXXXXXXX in the CI variables.",
        "api_key = os.environ['API_KEY']  # never a literal",
        "def get_api_key(self) -> str: return self.settings.api_key",
        "maxRetryCountForRequests = ThisIsAVeryLongIdentifierName",
        "the public key is ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG and it is fine to share",
        "publishable key: pk_live_51Hq8ZxL3kR9vT2mN7pW4yBcD",
        'public_key = "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit"',
    ],
)
def test_placeholders_references_identifiers_and_public_keys_are_kept(text: str) -> None:
    # Given text that names a secret without holding one
    # When it is read, Then nothing is found
    assert DETECTOR.detect(text) == []


def test_the_rule_set_is_read_from_the_installed_package_without_importing_it() -> None:
    # Given a fresh interpreter, When the rule set is loaded
    code = (
        "import sys\n"
        "from agent_memory.adapters.credentials import rules\n"
        "loaded = rules.load()\n"
        "print(len(loaded.rules), len(loaded.uncompiled), 'credsweeper' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=None
    ).stdout.split()
    adopted, uncompiled, imported = int(out[0]), int(out[1]), out[2]
    # Then most of CredSweeper's rules are adopted, all compile, and credsweeper is not imported
    assert adopted >= 100
    assert uncompiled == 0
    assert imported == "False"


def test_every_adopted_rule_names_its_kind() -> None:
    # Given the adopted rules, Then each has a label and at least one compiled pattern
    loaded = rules.load()
    assert all(rule.label and rule.patterns for rule in loaded.rules)
    assert loaded.total == len(loaded.rules) + sum(loaded.skipped.values())


def test_unknown_tokens_after_a_short_dotted_prefix_are_scrubbed_whole() -> None:
    # Given 300 tokens of formats no rule names: a provider's "xyz." prefix and a random body of
    # 30 to 100 letters and digits, in prose, assignments and markup
    draw = random.Random(40)
    tokens = [
        draw.choice(string.ascii_lowercase)
        + "".join(draw.choices(string.ascii_lowercase + string.digits, k=draw.randint(0, 5)))
        + "."
        + "".join(draw.choices(ALNUM, k=draw.randint(30, 100)))
        for _ in range(300)
    ]
    # When each is read
    caught = [t for i, t in enumerate(tokens) if covering(SETTINGS[i % len(SETTINGS)].format(t), t)]
    # Then nearly every one is found whole, prefix too (a random body now and then reads as
    # words and is kept: the price of keeping identifiers)
    assert len(caught) / len(tokens) >= 0.97


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(["password: ", "api_key=", "token ", "Passwort lautet ", "x."]),
    value=st.text(alphabet=string.ascii_letters + string.digits + "._-([])'\"=", max_size=60),
)
def test_any_value_after_a_key_name_is_judged_without_failing(name: str, value: str) -> None:
    # Given any run of identifier, call and index characters where a secret could stand
    text = f"{name}{value} end"
    # When it is read, Then the detector answers (a reference is never judged forever)
    found = DETECTOR.detect(text)
    assert all(0 <= e.begin < e.end <= len(text) for e in found)
