"""Where the stack can be deployed: the Regions that offer every service it uses.

The stack needs a Bedrock Knowledge Base on S3 Vectors storage, S3 Vectors itself and Amazon
Titan Text Embeddings V2; Step Functions, EventBridge, DynamoDB, Lambda on arm64 and X-Ray are
in every one of these Regions. The list is the intersection, kept conservative: a Region is
added only once every source below names it. Its PII detection is the local detector, in the
Lambda layer; ``-c piiDetector=comprehend`` adds Comprehend DetectPiiEntities beside it, which
every Region of the list offers too (a Region added later must, or such a deployment refuses
it: ``COMPREHEND_REGIONS``).

- S3 Vectors and Bedrock Knowledge Bases with S3 Vectors storage (its launch Regions):
  https://aws.amazon.com/blogs/aws/introducing-amazon-s3-vectors-first-cloud-storage-with-native-vector-support-at-scale/
  https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-vectors-bedrock-kb.html
  (S3 Vectors' general availability widened it to 14 Regions: check
  https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-vectors-regions-quotas.html before
  adding one)
- Titan Text Embeddings V2 (amazon.titan-embed-text-v2:0):
  https://docs.aws.amazon.com/bedrock/latest/userguide/models-regions.html
- Comprehend (DetectPiiEntities is a real-time API of every Comprehend Region), needed under
  ``piiDetector=comprehend`` only:
  https://docs.aws.amazon.com/general/latest/gr/comprehend.html
"""

from __future__ import annotations

from aws_cdk import Stack, Token

SUPPORTED_REGIONS: tuple[str, ...] = (
    "us-east-1",
    "us-east-2",
    "us-west-2",
    "eu-central-1",
    "ap-southeast-2",
)


# The Regions of the list that offer Comprehend (every one today).
COMPREHEND_REGIONS: tuple[str, ...] = SUPPORTED_REGIONS


class UnsupportedRegion(ValueError):
    """The stack's Region lacks a service the stack needs."""


def require_supported_region(stack: Stack, *, comprehend: bool = False) -> None:
    """Raise ``UnsupportedRegion`` if the stack is bound to a Region outside the list (or,
    when it scrubs with ``comprehend``, outside ``COMPREHEND_REGIONS``).

    An env-agnostic stack (its Region an unresolved token) is left alone: its Region is known
    only at deploy time.
    """
    region = stack.region
    if Token.is_unresolved(region):
        return
    if region not in SUPPORTED_REGIONS:
        raise UnsupportedRegion(
            f"agent-memory cannot be deployed in {region}: it needs Bedrock Knowledge Bases on "
            "S3 Vectors and Titan Text Embeddings V2, offered together only in "
            f"{', '.join(SUPPORTED_REGIONS)} (sources in stacks/regions.py)"
        )
    if comprehend and region not in COMPREHEND_REGIONS:
        raise UnsupportedRegion(
            f"agent-memory cannot scrub with Comprehend (piiDetector=comprehend) in {region}: "
            f"of the stack's Regions it runs only in {', '.join(COMPREHEND_REGIONS)} (sources "
            "in stacks/regions.py); deploy with piiDetector=local there"
        )
