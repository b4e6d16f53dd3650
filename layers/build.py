"""Build the Lambda dependency layer without Docker: arm64 wheels from PyPI plus this project.

Usage: ``python layers/build.py [--force] [--out build/layer]``. ``cdk.json`` runs it before
every synth; it rebuilds only when its inputs change (requirements, pyproject, ``src/``).
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stacks.runtime import (  # noqa: E402  (the repository root is only importable from here on)
    LAYER_SIZE_LIMIT_BYTES,
    LOCAL_ONLY_PACKAGES,
    PIP_PLATFORMS,
    PYTHON_VERSION,
)

REQUIREMENTS = ROOT / "layers" / "requirements.txt"
# Installed without dependencies: packages published as source only, and packages whose data
# files alone the functions read.
NO_DEPS_REQUIREMENTS = ROOT / "layers" / "requirements-no-deps.txt"
DEFAULT_OUT = ROOT / "build" / "layer"


def main(argv: list[str] | None = None) -> int:
    """Build the layer into ``--out`` unless its stamp says it is up to date."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--force", action="store_true", help="rebuild even if up to date")
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    stamp = out.with_name(out.name + ".stamp")
    digest = _inputs_digest()
    if not args.force and out.is_dir() and stamp.is_file() and stamp.read_text() == digest:
        print(f"layer up to date: {out}", file=sys.stderr)
        return 0
    staging = out.with_name(out.name + ".tmp")
    shutil.rmtree(staging, ignore_errors=True)
    _install(staging / "python")
    _prune(staging / "python")
    _check(staging / "python")
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    stamp.write_text(digest)
    print(f"layer built: {out} ({_size(out) / 2**20:.1f} MiB unzipped)", file=sys.stderr)
    return 0


def _inputs_digest() -> str:
    h = hashlib.sha256(f"{PYTHON_VERSION}/{PIP_PLATFORMS}".encode())
    files = [REQUIREMENTS, NO_DEPS_REQUIREMENTS, ROOT / "pyproject.toml", Path(__file__).resolve()]
    files += sorted(p for p in (ROOT / "src").rglob("*") if p.is_file() and _is_source(p))
    for path in files:
        h.update(str(path.relative_to(ROOT)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _is_source(path: Path) -> bool:
    return "__pycache__" not in path.parts and ".egg-info" not in str(path)


def _install(target: Path) -> None:
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    # Wheels for Lambda's platform, never a local build: the machine building may be x86_64.
    platforms = [arg for platform in PIP_PLATFORMS for arg in ("--platform", platform)]
    _run(
        [
            *pip,
            *("--target", str(target), *platforms, "--implementation", "cp"),
            *("--python-version", PYTHON_VERSION, "--only-binary=:all:"),
            *("-r", str(REQUIREMENTS)),
        ]
    )
    no_deps = [*pip, "--target", str(target), "--no-deps", "-r", str(NO_DEPS_REQUIREMENTS)]
    compiled = _pure_python_after(target, lambda: _run(no_deps))
    if compiled:
        raise SystemExit(f"compiled files from a --no-deps package: {', '.join(compiled)}")
    # The project is pure Python; --no-deps keeps the local-mode dependencies out.
    _run([*pip, "--target", str(target), "--no-deps", "--upgrade", str(ROOT)])


def _pure_python_after(target: Path, install: Callable[[], None]) -> list[str]:
    """Run ``install``; the compiled files it added to ``target`` (none for pure Python)."""
    before = set(target.rglob("*.so"))
    install()
    return sorted(str(p.relative_to(target)) for p in set(target.rglob("*.so")) - before)


def _prune(target: Path) -> None:
    shutil.rmtree(target / "bin", ignore_errors=True)
    for cache in list(target.rglob("__pycache__")):
        shutil.rmtree(cache, ignore_errors=True)


def _check(target: Path) -> None:
    shipped = [name for name in LOCAL_ONLY_PACKAGES if (target / name).exists()]
    if shipped:
        raise SystemExit(f"local-only packages leaked into the layer: {', '.join(shipped)}")
    if not (target / "agent_memory").is_dir():
        raise SystemExit("the agent_memory package is missing from the layer")
    size = _size(target)
    if size > LAYER_SIZE_LIMIT_BYTES:
        raise SystemExit(
            f"layer is {size / 2**20:.1f} MiB unzipped, over {LAYER_SIZE_LIMIT_BYTES / 2**20:.0f}"
        )


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _run(command: list[str]) -> None:
    print("+", " ".join(command), file=sys.stderr)
    subprocess.run(command, check=True, cwd=ROOT)


if __name__ == "__main__":
    raise SystemExit(main())
