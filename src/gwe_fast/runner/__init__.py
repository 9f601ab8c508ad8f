"""Batch execution and Parquet output."""
