"""Entities, value objects and pure operations (no I/O)."""
