"""Scenario files: format, loading and validation (see docs/scenarios.md)."""
