"""The four memory tiers: working, episodic, semantic and procedural memory."""
