"""Building blocks of the local knowledge base: document folder, vector index, lock, job log."""
