"""The use cases: consolidation, bootstrap, search, decay, ingestion, re-embedding, tenants."""
