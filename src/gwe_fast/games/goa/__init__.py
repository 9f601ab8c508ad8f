"""The Guns of August with Edward Sabatine's variants (seed 003): data, and later the engine.

``gwe_fast.games.goa.data`` reads and validates the scenario data in
``src/gwe_fast/data/goa/`` (see docs/goa.md).
"""
