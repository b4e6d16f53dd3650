"""The pattern every identifier (tenant, agent, run) matches, in a module of its own: a caller
that checks one (the CLI) need not import the event contracts and pydantic with it.
"""

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"
