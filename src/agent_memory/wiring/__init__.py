"""Where everything is wired: settings -> adapters -> the core's ports, in two halves:
the embedded store (``local``) and a deployed stack (``aws``).
"""
