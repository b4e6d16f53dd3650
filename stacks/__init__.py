"""The CDK side of agent-memory: one construct per concern, composed by ``memory_stack``.

Nothing is imported here, so ``layers/build.py`` can read ``stacks.runtime`` without loading CDK.
"""
