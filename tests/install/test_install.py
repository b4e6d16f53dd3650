"""Installing agent-memory into a project of one's own, as README.md and docs/sdk.md print it.

Every command of their install block runs as typed, from a copy of this checkout's tracked files,
into one fresh virtual environment made outside the repository (no system site-packages: the
dependencies come from the package index, as a user's pip gets them; this is the one test that
reaches it). The block's placeholders are filled in here:

- ``/path/to/agent-memory`` is that copy (a clone on disk);
- ``<url of your clone>`` is the ``file://localhost/...`` URL of a bare git clone of it;
- the copy's ``.venv`` is this test run's own environment, as after ``make test``, so ``make dist``
  runs in the copy as typed without installing the dev tools a second time.

Then, from a folder outside the repository with that environment's Python, the README's agent
loop (its first ``python`` block, extracted) and ``agent-memory --help`` run.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
README = ROOT / "README.md"
SDK_DOC = ROOT / "docs" / "sdk.md"
CLONE_PLACEHOLDER = "/path/to/agent-memory"
URL_PLACEHOLDER = "<url of your clone>"
PIP_TIMEOUT = 900


def fenced(markdown: str, language: str) -> list[str]:
    """The bodies of the Markdown code blocks fenced as ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", markdown, flags=re.MULTILINE | re.DOTALL)


def install_block(markdown: str) -> str:
    """The ``sh`` block that installs from a clone (the one starting ``pip install /path/...``)."""
    found = [b for b in fenced(markdown, "sh") if b.startswith(f"pip install {CLONE_PLACEHOLDER}")]
    assert len(found) == 1, "no install block (or more than one)"
    return found[0]


def commands(block: str) -> list[str]:
    """The block's commands, each line without its trailing comment."""
    return [re.sub(r"\s+#.*$", "", line).strip() for line in block.splitlines() if line.strip()]


# Which command of the block is which form of install: each must match exactly one command.
FORMS: dict[str, Callable[[str], bool]] = {
    "clone": lambda c: c == f"pip install {CLONE_PLACEHOLDER}",
    "git": lambda c: c.startswith("pip install ") and "git+" in c,
    "dist": lambda c: c == "make dist",
    "wheel": lambda c: c.startswith("pip install ") and c.endswith(".whl"),
    "extra": lambda c: c.startswith("pip install ") and re.search(r"\[\w+\]", c) is not None,
}


def documented(form: str) -> str:
    """The README's command for one form of install, as printed."""
    (command,) = [c for c in commands(install_block(README.read_text())) if FORMS[form](c)]
    return command


def tracked_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return [name for name in listed.split("\0") if name and (ROOT / name).is_file()]


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without what would leak this checkout or this run into a
    user's shell: the source on PYTHONPATH, the active venv, the memory's settings, an outer
    make's flags and git's variables."""
    drop = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in drop and not k.startswith(("AGENT_MEMORY_", "GIT_"))
    }
    return {**env, **extra}


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=PIP_TIMEOUT, check=False
    )


def git(*args: str, cwd: Path) -> None:
    identity = ["-c", "user.name=test", "-c", "user.email=test@example.com"]
    done = run(["git", *identity, "-c", "commit.gpgsign=false", *args], cwd, clean_env())
    assert done.returncode == 0, done.stderr


def linked_venv(checkout: Path) -> None:
    """The checkout's ``.venv``: this run's environment (its interpreter, packages and config
    linked), with the install stamps ``make`` checks newer than the copied pyproject.toml."""
    assert sys.prefix != sys.base_prefix, "the suite runs in the project's .venv (make test)"
    venv = checkout / ".venv"
    venv.mkdir()
    for name in ("bin", "lib", "pyvenv.cfg"):
        (venv / name).symlink_to(Path(sys.prefix) / name)
    for stamp in (".installed-base", ".installed-dev"):
        (venv / stamp).touch()


@dataclass
class Project:
    """A user's project: a fresh virtual environment and a folder, both outside the repository."""

    root: Path
    checkout: Path
    clone_url: str
    venv: Path = field(init=False)
    installed_by: str | None = None

    def __post_init__(self) -> None:
        self.venv = self.root / "venv"

    @property
    def folder(self) -> Path:
        return self.root / "project"

    def shell_env(self, **extra: str) -> dict[str, str]:
        """A shell with the project's environment activated."""
        path = f"{self.venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
        return clean_env(PATH=path, VIRTUAL_ENV=str(self.venv), **extra)

    def filled(self, command: str) -> str:
        """The command with its placeholders filled in: the copy, and its bare clone's URL."""
        return command.replace(CLONE_PLACEHOLDER, str(self.checkout)).replace(
            URL_PLACEHOLDER, self.clone_url
        )

    def shell(self, command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        return run(["bash", "-c", self.filled(command)], cwd, self.shell_env())

    def install(self, form: str) -> None:
        """agent-memory installed by the README's command for ``form``, in place of any other."""
        if self.installed_by == form:
            return
        python = str(self.venv / "bin" / "python")
        removed = run(
            [python, "-m", "pip", "uninstall", "-y", "agent-memory"], self.root, self.shell_env()
        )
        assert removed.returncode == 0, removed.stderr
        self.installed_by = None
        done = self.shell(documented(form), cwd=self.checkout)
        assert done.returncode == 0, f"{documented(form)}:\n{done.stdout[-3000:]}{done.stderr}"
        self.installed_by = form

    def python(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        """The project environment's Python, run in the project's folder."""
        return run([str(self.venv / "bin" / "python"), *args], self.folder, self.shell_env(**env))

    def extra_command(self, extra: str) -> list[str]:
        """The pip command a missing-extra message of the installed package prints, as words."""
        done = self.python(
            "-c",
            "from agent_memory.adapters.install import install_command;"
            f"print(install_command({extra!r}))",
        )
        assert done.returncode == 0, done.stderr
        return shlex.split(done.stdout)

    def origin(self) -> dict[str, object]:
        """Where pip says the installed agent-memory came from (PEP 610's direct_url.json)."""
        done = self.python(
            "-c",
            "import importlib.metadata as m;"
            "print(m.distribution('agent-memory').read_text('direct_url.json'))",
        )
        assert done.returncode == 0, done.stderr
        found: dict[str, object] = json.loads(done.stdout)
        return found


@pytest.fixture(scope="module")
def workspace() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="agent-memory-install-") as folder:
        path = Path(folder).resolve()
        assert not path.is_relative_to(ROOT.resolve())
        yield path


@pytest.fixture(scope="module")
def checkout(workspace: Path) -> Path:
    """A clone on disk: the tracked files as they are in this working tree."""
    copy = workspace / "agent-memory"
    for name in tracked_files():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, copy / name, follow_symlinks=False)
    git("init", "-q", cwd=copy)
    git("add", "-A", cwd=copy)
    git("commit", "-q", "-m", "the working tree under test", cwd=copy)
    linked_venv(copy)
    return copy


@pytest.fixture(scope="module")
def dist(checkout: Path) -> Path:
    """``make dist`` run in the clone as typed."""
    done = run(["bash", "-c", documented("dist")], checkout, clean_env())
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    return checkout / "dist"


@pytest.fixture(scope="module")
def project(workspace: Path, checkout: Path) -> Project:
    bare = workspace / "agent-memory.git"
    git("clone", "-q", "--bare", str(checkout), str(bare), cwd=workspace)
    # file://localhost/...: the pip that `python -m venv` bundles refuses a git+file URL
    # without a host (file:///...); git and every pip read this form.
    made = Project(root=workspace, checkout=checkout, clone_url=f"file://localhost{bare}")
    made.folder.mkdir()
    done = run([sys.executable, "-m", "venv", str(made.venv)], workspace, clean_env())
    assert done.returncode == 0, done.stderr
    return made


def wheel_name() -> str:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    return f"agent_memory-{version}-py3-none-any.whl"


def wheel_files(wheel: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def extras_table(markdown: str) -> list[tuple[str, str]]:
    """The rows (extra, what it brings) of the first table after the install block."""
    after = markdown[markdown.index(install_block(markdown)) :]
    table = re.search(r"^\| extra \|.*?\n((?:\|.*\n)+)", after, flags=re.MULTILINE)
    assert table, "no table of extras after the install block"
    return re.findall(r"^\| `([\w-]+)` \| (.+) \|$", table.group(1), flags=re.MULTILINE)


def test_each_install_command_of_the_readme_is_one_form_run_here() -> None:
    # Given the README's install block
    printed = commands(install_block(README.read_text()))
    # Then each command is exactly one of the forms the tests below run, and each form is printed
    assert all(sum(matches(c) for matches in FORMS.values()) == 1 for c in printed), printed
    assert all(sum(matches(c) for c in printed) == 1 for matches in FORMS.values()), printed


def test_the_sdk_page_prints_the_readmes_install_block() -> None:
    # Given docs/sdk.md's install block
    # Then it is the README's, so the commands run here are the ones it prints
    assert install_block(SDK_DOC.read_text()) == install_block(README.read_text())


@pytest.mark.parametrize("document", [README, SDK_DOC], ids=lambda p: p.name)
def test_every_extra_is_listed_with_what_it_brings(document: Path) -> None:
    # Given the extras pyproject.toml declares (dev is the repository's own)
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    # When the document's table of extras (the first after its install block) is read
    rows = extras_table(document.read_text())
    # Then each extra has one row saying what it brings
    assert sorted(name for name, _ in rows) == sorted(set(declared) - {"dev"})
    assert all(len(what.split()) >= 3 for _, what in rows), rows


def test_make_dist_builds_the_wheel_the_readme_installs_and_an_sdist(dist: Path) -> None:
    # Given `make dist` run in a clone
    # Then dist/ holds the wheel the README names, and the sdist of the same version
    assert documented("wheel").endswith(f"dist/{wheel_name()}")
    names = sorted(p.name for p in dist.iterdir())
    assert names == sorted([wheel_name(), wheel_name().split("-py3")[0] + ".tar.gz"])


def test_the_wheel_holds_every_file_of_the_package(dist: Path) -> None:
    # Given every tracked file of the package: modules, schemas, word lists, py.typed
    package = [n for n in tracked_files() if n.startswith("src/agent_memory/")]
    assert "src/agent_memory/py.typed" in package
    assert any(n.endswith(".schema.json") for n in package)
    # When the wheel `make dist` built is opened
    held = set(wheel_files(dist / wheel_name()))
    # Then each of them is in it, where the installed package reads it
    assert [n for n in package if n.removeprefix("src/") not in held] == []


def test_the_sdist_builds_the_same_wheel_as_the_source_tree(
    dist: Path, checkout: Path, workspace: Path
) -> None:
    # Given the wheel `make dist` built from its sdist
    from_sdist = wheel_files(dist / wheel_name())
    # When a wheel is built straight from the clone's tree
    direct = workspace / "direct"
    python = str(checkout / ".venv" / "bin" / "python")
    done = run(
        [python, "-m", "build", "--wheel", "--outdir", str(direct), "."], checkout, clean_env()
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    # Then both hold the same files, byte for byte: the sdist leaves nothing out
    from_tree = wheel_files(direct / wheel_name())
    assert sorted(from_tree) == sorted(from_sdist)
    assert [name for name in from_tree if from_tree[name] != from_sdist[name]] == []


def test_the_readme_agent_loop_runs_from_the_installed_wheel(
    project: Project, dist: Path, workspace: Path
) -> None:
    # Given the wheel installed into the project as the README says
    project.install("wheel")
    loop = project.folder / "loop.py"
    loop.write_text(fenced(README.read_text(), "python")[0])
    home = workspace / "home"
    home.mkdir(exist_ok=True)
    # When the README's agent loop runs twice in the project, its store in a fresh home
    first = project.python(str(loop), HOME=str(home))
    second = project.python(str(loop), HOME=str(home))
    # Then the installed package ran it, and the second run started with what the first did
    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    assert "[MEMORY CONTEXT" not in first.stdout
    assert "[EPISODIC MEMORY" in second.stdout, second.stdout
    assert (home / ".agent-memory").is_dir()
    where = project.python("-c", "import agent_memory; print(agent_memory.__file__)")
    assert Path(where.stdout.strip()).is_relative_to(project.venv), where.stdout
    # And a missing extra's message installs it from the same wheel
    command = project.extra_command("aws")
    assert command[:2] == ["pip", "install"] and command[2].startswith("agent-memory[aws] @ file:")
    assert command[2].endswith(".whl"), command


def test_agent_memory_help_runs_from_the_installed_wheel(project: Project, dist: Path) -> None:
    # Given the wheel installed into the project
    project.install("wheel")
    # When `agent-memory --help` is typed in the project's folder, its environment active
    done = project.shell("agent-memory --help", cwd=project.folder)
    # Then the project's command answers
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: agent-memory"), done.stdout
    assert shutil.which("agent-memory", path=project.shell_env()["PATH"]) == str(
        project.venv / "bin" / "agent-memory"
    )


def test_a_clone_on_disk_installs(project: Project) -> None:
    # When the README's command installs from the clone's folder
    project.install("clone")
    # Then the package came from that folder, and its command runs
    assert project.origin()["url"] == project.checkout.as_uri()
    assert project.shell("agent-memory --version", cwd=project.folder).returncode == 0
    # And a missing extra's message installs it from the same folder
    assert project.extra_command("aws") == ["pip", "install", f"{project.checkout}[aws]"]


def test_a_git_url_installs(project: Project) -> None:
    # When the README's command installs from a git URL (a bare clone's, over file://)
    project.install("git")
    # Then pip cloned that repository, and the command runs
    origin = project.origin()
    assert origin["url"] == project.clone_url and "vcs_info" in origin, origin
    assert project.shell("agent-memory --version", cwd=project.folder).returncode == 0
    # And a missing extra's message installs it from the same URL
    command = project.extra_command("aws")
    assert command[:2] == ["pip", "install"]
    assert command[2].startswith(f"agent-memory[aws] @ git+{project.clone_url}"), command


def test_an_extra_installs_with_the_package(project: Project) -> None:
    # When the README's command installs the package with an extra (the MCP server's)
    project.install("extra")
    # Then what the extra brings is there: the MCP SDK, and the command's mcp server
    assert project.python("-c", "import mcp").returncode == 0
    done = project.shell("agent-memory mcp --help", cwd=project.folder)
    assert done.returncode == 0, done.stderr
