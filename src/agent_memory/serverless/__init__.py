"""The AWS entry-point layer: settings, observability and wiring shared by the Lambda handlers.

Needs the ``aws`` extra (boto3, Powertools, langchain-aws); the local mode never imports it.
"""
