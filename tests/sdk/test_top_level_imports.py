"""What a user imports comes from the package itself: ``from agent_memory import MemoryClient``
gives the SDK's names, and ``import agent_memory`` alone loads none of them.
"""

from __future__ import annotations

import subprocess
import sys

import agent_memory
import agent_memory.sdk


def test_every_sdk_name_is_importable_from_the_package() -> None:
    # Then the package names what the SDK exports, each the very same object
    assert sorted(agent_memory.__all__) == sorted(agent_memory.sdk.__all__)
    for name in agent_memory.sdk.__all__:
        assert getattr(agent_memory, name) is getattr(agent_memory.sdk, name)
    assert set(agent_memory.sdk.__all__) <= set(dir(agent_memory))


def test_importing_the_package_alone_loads_no_sdk() -> None:
    # Given a fresh interpreter
    code = (
        "import sys, agent_memory; "
        "print(sorted(m for m in sys.modules if m.startswith('agent_memory')))"
    )
    # When it imports the package and then one name from it
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    named = subprocess.run(
        [sys.executable, "-c", "from agent_memory import MemoryClient; print(MemoryClient)"],
        capture_output=True,
        text=True,
    )
    # Then the bare import loads only the package, and the name comes from the SDK
    assert loaded.returncode == 0 and loaded.stdout.strip() == "['agent_memory']"
    assert named.returncode == 0 and "agent_memory.sdk.client.MemoryClient" in named.stdout


def test_a_name_the_package_does_not_have_is_an_attribute_error() -> None:
    try:
        agent_memory.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as error:
        assert "NoSuchThing" in str(error)
    else:
        raise AssertionError("no AttributeError")
