"""The pip command a missing-extra message prints, for each source pip records (PEP 610)."""

from __future__ import annotations

import shlex
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_memory.adapters.install import install_command


@pytest.mark.parametrize(
    ("installed_from", "command"),
    [
        (
            {"url": "file:///home/ana/agent-memory", "dir_info": {}},
            "pip install '/home/ana/agent-memory[aws]'",
        ),
        (
            {"url": "file:///home/ana/agent-memory", "dir_info": {"editable": True}},
            "pip install -e '/home/ana/agent-memory[aws]'",
        ),
        (
            {"url": "file:///srv/My%20Clone", "dir_info": {}},
            "pip install '/srv/My Clone[aws]'",
        ),
        (
            {
                "url": "file:///tmp/dist/agent_memory-0.1.0-py3-none-any.whl",
                "archive_info": {"hashes": {}},
            },
            "pip install 'agent-memory[aws] @ file:///tmp/dist/agent_memory-0.1.0-py3-none-any.whl'",
        ),
        (
            {
                "url": "https://example.com/team/agent-memory.git",
                "vcs_info": {"vcs": "git", "commit_id": "0" * 40, "requested_revision": "v0.1"},
            },
            "pip install 'agent-memory[aws] @ git+https://example.com/team/agent-memory.git@v0.1'",
        ),
        (
            {"url": "https://example.com/team/agent-memory.git", "vcs_info": {"vcs": "git"}},
            "pip install 'agent-memory[aws] @ git+https://example.com/team/agent-memory.git'",
        ),
        ({}, "pip install 'agent-memory[aws]'"),
    ],
    ids=["folder", "editable", "spaces", "wheel", "git-revision", "git", "index"],
)
def test_the_command_installs_from_where_agent_memory_came_from(
    installed_from: dict[str, Any], command: str
) -> None:
    # Given where pip recorded agent-memory was installed from
    # When the command adding the aws extra is asked for
    # Then it installs from that same source, with the extra
    assert install_command("aws", installed_from=installed_from) == command


def test_an_unknown_source_says_what_to_put_in_the_command() -> None:
    # Given no record pip can give (a source tree on the path, a record without a URL)
    # When the command is asked for
    said = install_command("mcp", installed_from={"dir_info": {}})
    # Then it names the extra and what to install it from, and prints no bare package name
    assert said.startswith("pip install '<") and said.endswith("[mcp]'")
    assert "agent-memory[mcp]'" not in said.replace("agent-memory clone", "")


@given(folder=st.text(st.characters(codec="utf-8", exclude_characters="\x00/"), min_size=1))
def test_a_folder_with_any_name_is_one_shell_word(folder: str) -> None:
    # Given a clone in a folder of any name
    url = "file:///srv/" + "".join(f"%{b:02X}" for b in folder.encode())
    # When the command is split as a shell splits it
    words = shlex.split(install_command("aws", installed_from={"url": url, "dir_info": {}}))
    # Then the folder with its extra is one word, as typed
    assert words == ["pip", "install", f"/srv/{folder}[aws]"]


def test_this_installation_gives_a_command_for_its_own_source() -> None:
    # Given agent-memory as installed here (the test environment's own record)
    # When the command is asked for without a record
    said = install_command("langgraph")
    # Then it is a pip command for the langgraph extra
    assert said.startswith("pip install") and "[langgraph]" in said
