"""Generators of the PII detector's word, place and country-name lists (not shipped)."""
