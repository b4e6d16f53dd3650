"""The layer build's guards, without building it (no network in tests)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from stacks.runtime import LOCAL_ONLY_PACKAGES

LAYERS = Path(__file__).resolve().parents[2] / "layers"


def _build_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("layer_build", LAYERS / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_layer_requirements_are_only_what_lambda_needs():
    lines = (LAYERS / "requirements.txt").read_text().splitlines()
    names = {line.split("==")[0].split("[")[0] for line in lines if line and line[0] != "#"}
    # The core needs numpy, pydantic and snowballstemmer; the AWS side Powertools and
    # langchain-aws; the scrub step detect-secrets and the local PII detector's data and
    # check digits (phonenumbers without its geocoder). No local model.
    assert names == {
        "phonenumberslite",
        "python-stdnum",
        "pyspellchecker",
        "japanese-personal-name-dataset",
        "detect-secrets",
        "aws-lambda-powertools",
        "langchain-aws",
        "pydantic",
        "numpy",
        "snowballstemmer",
        # natasha's wheel dependencies (Russian person names; natasha is source-installed)
        "slovnet",
        "navec",
        "razdel",
        "ipymarkup",
        "intervaltree",
        "sortedcontainers",
        "DAWG-Python",
        "pymorphy2-dicts-ru",
    }


@pytest.mark.parametrize("package", LOCAL_ONLY_PACKAGES)
def test_layer_build_refuses_local_only_packages(tmp_path: Path, package: str):
    (tmp_path / "agent_memory").mkdir()
    (tmp_path / package).mkdir(parents=True)
    with pytest.raises(SystemExit, match=package):
        _build_module()._check(tmp_path)


def test_layer_build_refuses_a_layer_over_lambdas_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    build = _build_module()
    (tmp_path / "agent_memory").mkdir()
    (tmp_path / "agent_memory" / "big.bin").write_bytes(b"\0" * 2048)
    monkeypatch.setattr(build, "LAYER_SIZE_LIMIT_BYTES", 1024)
    with pytest.raises(SystemExit, match="unzipped"):
        build._check(tmp_path)


def test_a_source_only_package_that_compiles_is_found(tmp_path: Path):
    # Given a layer folder with a compiled file already in it (a wheel's)
    build = _build_module()
    (tmp_path / "numpy").mkdir()
    (tmp_path / "numpy" / "core.so").write_bytes(b"")

    def install() -> None:  # a source package whose build compiled an extension
        (tmp_path / "names").mkdir()
        (tmp_path / "names" / "speedups.so").write_bytes(b"")

    # When a source-only package is installed
    added = build._pure_python_after(tmp_path, install)
    # Then only the file it compiled is reported
    assert added == ["names/speedups.so"]


def test_the_packages_installed_without_dependencies_are_the_pure_python_data_ones():
    # Given the list installed with --no-deps, Then it is the census name lists (source only),
    # CredSweeper (its rule file is read; its dependencies would not fit), and natasha with
    # the packages between it and the source-only docopt
    lines = (LAYERS / "requirements-no-deps.txt").read_text().splitlines()
    assert [line for line in lines if line and line[0] != "#"] == [
        "names==0.3.0",
        "credsweeper==1.19.5",
        "natasha==1.6.0",
        "yargy==0.16.0",
        "pymorphy2==0.9.1",
        "docopt==0.6.2",
    ]
