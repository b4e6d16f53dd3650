"""AWS adapters: DynamoDB, S3 + Bedrock Knowledge Bases, Bedrock models, Comprehend, STS.

Imported only on the AWS path (needs the ``aws`` extra); the local mode never loads them.
"""
