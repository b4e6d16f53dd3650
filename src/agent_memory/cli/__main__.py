"""``python -m agent_memory.cli``."""

import sys

from agent_memory.cli.main import main

sys.exit(main())
