"""AWS that is not set up (no region, no credentials, no ``[aws]`` extra): one line saying what
to set or install, exit 2 on the command line, a documented SDK error in Python.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent_memory.adapters.install import install_command
from agent_memory.cli.main import BAD_INPUT, main
from agent_memory.sdk import MemoryClient
from agent_memory.sdk.errors import (
    MissingCredentialsError,
    MissingExtraError,
    MissingRegionError,
    NotSetUpError,
    missing_extra,
)

SRC = Path(__file__).resolve().parents[3]


@pytest.fixture
def no_aws(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    """An environment without any AWS setting: no region, credentials, profile or metadata."""
    for name in list(os.environ):
        if name.startswith("AWS_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    return monkeypatch


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["--aws-stack", "AgentMemory", *argv])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ("export", "--tenant", "acme"),
        ("failed", "list"),
        ("history", "--tenant", "acme"),
        ("mcp", "--tenant", "acme", "--agent", "reviewer"),
    ],
)
def test_no_region_is_one_line_saying_how_to_give_one(
    no_aws: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    # Given no region anywhere
    # When a command runs on a stack
    code, err = _cli(capsys, *argv)
    # Then it exits 2 with one line naming --region and AWS_REGION
    assert code == BAD_INPUT, err
    assert err.count("\n") == 1 and "--region" in err and "AWS_DEFAULT_REGION" in err


@pytest.mark.parametrize(
    ("credentials", "detail"),
    [({}, "Unable to locate credentials"), ({"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE"}, "Partial")],
)
def test_no_credentials_is_one_line_saying_what_to_set(
    no_aws: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    credentials: dict[str, str],
    detail: str,
) -> None:
    # Given a region but no credentials (or half a key pair)
    no_aws.setenv("AWS_DEFAULT_REGION", "eu-west-1")
    for name, value in credentials.items():
        no_aws.setenv(name, value)
    # When a command runs on a stack
    code, err = _cli(capsys, "export", "--tenant", "acme")
    # Then it exits 2 with one line saying what to set
    assert code == BAD_INPUT, err
    assert err.count("\n") == 1 and "AWS_PROFILE" in err and detail in err


def test_the_sdk_raises_its_documented_errors(no_aws: pytest.MonkeyPatch) -> None:
    # Given no region
    # When a client is made from a stack
    with pytest.raises(MissingRegionError) as no_region:
        MemoryClient.aws_from_stack("AgentMemory")
    # Then the error is the SDK's, a ConfigurationError saying what to do
    assert isinstance(no_region.value, NotSetUpError) and "AWS_DEFAULT_REGION" in str(
        no_region.value
    )
    # And given a region without credentials, the same for credentials
    no_aws.setenv("AWS_DEFAULT_REGION", "eu-west-1")
    with pytest.raises(MissingCredentialsError):
        MemoryClient.aws_from_stack("AgentMemory")


def _without(module: str, code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run in a fresh interpreter where ``module`` cannot be imported."""
    blocker = f"import sys; sys.modules[{module!r}] = None\n"
    env = {
        **os.environ,
        "PYTHONPATH": f"{SRC / 'src'}{os.pathsep}{SRC}",
        "AWS_DEFAULT_REGION": "eu-west-1",
    }
    return subprocess.run(
        [sys.executable, "-c", blocker + code],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.mark.parametrize("module", ["boto3", "botocore"])
def test_a_missing_aws_extra_names_the_pip_install(module: str) -> None:
    # Given an interpreter without the [aws] extra's module
    # When the CLI runs a command on a stack
    done = _without(
        module,
        "from agent_memory.cli.main import main\n"
        "sys.exit(main(['--aws-stack', 'AgentMemory', 'export', '--tenant', 'acme']))",
    )
    # Then it exits 2 with one line naming the extra to install
    assert done.returncode == BAD_INPUT, done.stderr
    assert done.stderr.count("\n") == 1
    assert install_command("aws") in done.stderr and "Traceback" not in done.stderr


def test_the_sdk_without_boto3_raises_missing_extra() -> None:
    # Given an interpreter without boto3
    # When the SDK makes a client from a stack
    done = _without(
        "boto3",
        "from agent_memory.sdk import MemoryClient\n"
        "from agent_memory.sdk.errors import MissingExtraError\n"
        "try:\n    MemoryClient.aws_from_stack('AgentMemory')\n"
        "except MissingExtraError as error:\n    print(error.extra, error.module)\n",
    )
    # Then it raises MissingExtraError naming the extra
    assert done.stdout.strip() == "aws boto3", done.stderr


def test_mcp_without_its_extra_names_the_pip_install(tmp_path: Path) -> None:
    # Given an interpreter without the mcp package
    store = tmp_path / "store"
    # When `agent-memory mcp` starts
    done = _without(
        "mcp",
        "from agent_memory.cli.main import main\n"
        f"sys.exit(main(['--store', {str(store)!r}, 'mcp', '--tenant', 'a', '--agent', 'b']))",
    )
    # Then it exits 2 with one line naming the extra, and makes no store
    assert done.returncode == BAD_INPUT, done.stderr
    assert done.stderr.count("\n") == 1 and install_command("mcp") in done.stderr
    assert not store.exists()


@pytest.mark.parametrize(
    ("module", "extra"),
    [
        ("aws_lambda_powertools", "aws"),
        ("boto3", "aws"),
        ("mcp", "mcp"),
        ("langgraph", "langgraph"),
        ("strands", "strands"),
    ],
)
def test_each_optional_module_names_its_extra(module: str, extra: str) -> None:
    # Given the import error of a missing optional module (a submodule of it too)
    error = ModuleNotFoundError(f"No module named {module!r}", name=f"{module}.sub")
    # When the SDK reads it
    found = missing_extra(error)
    # Then it names the extra that installs the module
    assert isinstance(found, MissingExtraError)
    assert (found.extra, found.module) == (extra, module)
    assert install_command(extra) in str(found)


def test_another_import_error_is_not_taken_for_a_missing_extra() -> None:
    # Given an import error of a module no extra installs (a bug)
    # When the SDK reads it
    # Then it is left as it is
    assert missing_extra(ModuleNotFoundError("No module named 'nope'", name="nope")) is None


def test_importing_the_mcp_server_without_its_extra_names_the_pip_install() -> None:
    # Given an interpreter without the mcp package
    # When the MCP integration is imported
    done = _without("mcp", "import agent_memory.integrations.mcp")
    # Then the ImportError says what to install
    assert done.returncode != 0
    assert install_command("mcp") in done.stderr.splitlines()[-1], done.stderr
