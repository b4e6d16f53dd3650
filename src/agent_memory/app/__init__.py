"""The application layer: the commands and queries every surface calls (see
``docs/architecture.md``).
"""

from agent_memory.app.application import Application

__all__ = ["Application"]
