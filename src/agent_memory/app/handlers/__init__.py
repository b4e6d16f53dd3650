"""One handler per command or query, grouped by what they work on."""
