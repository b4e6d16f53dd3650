"""Every ``cdk deploy`` and ``cdk synth`` line that README.md and docs/*.md print synthesizes as
written, with the cdk-nag AwsSolutions checks the app runs (a deploy runs the same synthesis
first): each line's ``-c`` context, and every supported Region with the options whose IAM names
the Region (principal-tag tenancy, an inference profile, a reranker). A new documented line is
covered without a new test.

Source of the behaviour: cdk-nag's granular IAM5 findings are the flattened resource ARN, with a
bound Region or account written as a literal (https://github.com/cdklabs/cdk-nag#suppressing-a-rule);
`cdk deploy` synthesizes the app before it deploys
(https://docs.aws.amazon.com/cdk/v2/guide/ref-cli-cmd-deploy.html).
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from app import CLI_CONTEXT, build_app
from stacks.regions import SUPPORTED_REGIONS

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# An inference profile's geography, by the Region's prefix.
GEOGRAPHY = {"us": "us", "eu": "eu", "ap": "apac"}


def documented_shell_lines(paths: list[Path] = DOCUMENTS) -> list[tuple[str, str]]:
    """``(where, line)`` for each line of the documents' shell blocks, with backslash
    continuations joined and trailing comments dropped."""
    found: list[tuple[str, str]] = []
    for path in paths:
        blocks = re.findall(r"^```(?:sh|bash|shell)\n(.*?)^```$", path.read_text(), re.M | re.S)
        for block in blocks:
            for line in re.sub(r"\\\n\s*", " ", block).splitlines():
                command = line.split(" #", 1)[0].strip()
                if command:
                    found.append((path.name, command))
    return found


def documented_lines(paths: list[Path] = DOCUMENTS) -> list[tuple[str, str]]:
    """The ``cdk deploy`` and ``cdk synth`` lines of the documents' shell blocks."""
    return [
        (where, line)
        for where, line in documented_shell_lines(paths)
        if re.search(r"\bcdk (?:deploy|synth)\b", line)
    ]


def context_of(command: str) -> dict[str, str]:
    """The ``-c key=value`` / ``--context key=value`` pairs of a CDK command line."""
    words = shlex.split(command)
    pairs = [words[i + 1] for i, w in enumerate(words[:-1]) if w in {"-c", "--context"}]
    return dict(pair.split("=", 1) for pair in pairs)


def synthesize(context: dict[str, Any], extra: dict[str, str], outdir: Path) -> None:
    """Synthesize the app as the CLI would, with cdk-nag; raises on any unacknowledged finding."""
    build_app(context={**CLI_CONTEXT, **context, **extra}, outdir=str(outdir)).synth()


def region_options(region: str) -> dict[str, str]:
    geography = GEOGRAPHY[region.split("-", 1)[0]]
    return {
        "region": region,
        "tenantIdentity": "principal-tag",
        "chatModelId": f"{geography}.anthropic.claude-haiku-4-5-20251001-v1:0",
        "rerankModelArn": f"arn:aws:bedrock:{region}::foundation-model/amazon.rerank-v1:0",
    }


LINES = documented_lines()


def test_the_documents_print_deploy_lines() -> None:
    # Guards the tests below against passing on no line at all.
    assert any("region=" in line for _, line in LINES), LINES
    assert len(LINES) >= 5


@pytest.mark.parametrize(
    "command", sorted({line for _, line in LINES}), ids=lambda line: line[-70:]
)
def test_every_documented_deploy_line_synthesizes_with_nag(
    command: str, context: dict[str, Any], tmp_path: Path
) -> None:
    # Given a deploy line as the docs print it
    # When the app is synthesized with its context, Then cdk-nag finds nothing unacknowledged
    synthesize(context, context_of(command), tmp_path)


@pytest.mark.parametrize("region", SUPPORTED_REGIONS)
def test_every_supported_region_synthesizes_with_every_region_bound_option(
    region: str, context: dict[str, Any], tmp_path: Path
) -> None:
    # Given the stack bound to the Region, with every option whose IAM names the Region
    # When it is synthesized, Then cdk-nag finds nothing unacknowledged
    synthesize(context, region_options(region), tmp_path)


def test_a_line_that_does_not_work_fails(context: dict[str, Any], tmp_path: Path) -> None:
    # Given a deploy line for a Region the stack cannot use
    line = "npx cdk deploy -c region=sa-east-1"
    # When it is synthesized, Then it fails (so a broken documented line would fail above)
    with pytest.raises(Exception, match="sa-east-1"):
        synthesize(context, context_of(line), tmp_path)


def test_the_reader_joins_continued_lines_and_drops_comments(tmp_path: Path) -> None:
    # Given a shell block with a continued deploy line and a comment
    doc = tmp_path / "doc.md"
    doc.write_text(
        "```sh\nnpx cdk deploy -c region=us-east-1 \\\n  -c chatModelId=x  # extraction\n"
        "make synth\n```\n"
    )
    # When it is read, Then one line holds both options and no comment
    [(_, line)] = documented_lines([doc])
    assert context_of(line) == {"region": "us-east-1", "chatModelId": "x"}


def test_every_region_a_documented_command_names_is_supported() -> None:
    # Given every shell line of the documents that names a Region (``--region``, ``region=``)
    named = {
        (where, region)
        for where, line in documented_shell_lines()
        for region in re.findall(r"(?:--region[ =]|region=)([a-z]{2}-[a-z]+-\d)", line)
    }
    assert named, "no documented command names a Region"
    # Then each is one the stack can be deployed in
    assert {(w, r) for w, r in named if r not in SUPPORTED_REGIONS} == set()


def test_the_deployers_roles_are_the_ones_this_apps_synthesizer_assumes(
    context: dict[str, Any], tmp_path: Path
) -> None:
    # Given the roles docs/aws.md tells a deployer to be allowed to assume
    guide = (ROOT / "docs" / "aws.md").read_text()
    documented = set(re.findall(r"cdk-hnb659fds-[a-z-]+-role", guide))
    documented |= {
        f"cdk-hnb659fds-{kind}-role" for kind in re.findall(r"…-([a-z-]+)-role-…", guide)
    }
    # When the app is synthesized
    synthesize(context, {}, tmp_path)
    # Then the roles the CLI assumes to deploy, look up and publish assets (the stack's
    # assumeRoleArn and lookupRole, each asset destination's assumeRoleArn) are those; the
    # CloudFormation execution role is passed to CloudFormation, not assumed by the deployer
    assumed: set[str] = set()
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    for artifact in manifest["artifacts"].values():
        properties = artifact.get("properties", {})
        for arn in (properties.get("assumeRoleArn"), properties.get("lookupRole", {}).get("arn")):
            assumed |= set(re.findall(r"cdk-hnb659fds-[a-z-]+-role", arn or ""))
    for assets in tmp_path.glob("*.assets.json"):
        for destination in _destinations(json.loads(assets.read_text())):
            assumed |= set(re.findall(r"cdk-hnb659fds-[a-z-]+-role", destination["assumeRoleArn"]))
    assert {"cdk-hnb659fds-deploy-role", "cdk-hnb659fds-file-publishing-role"} <= assumed
    assert assumed <= documented, (assumed, documented)


def _destinations(assets: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        destination
        for kind in ("files", "dockerImages")
        for asset in assets.get(kind, {}).values()
        for destination in asset["destinations"].values()
    ]
