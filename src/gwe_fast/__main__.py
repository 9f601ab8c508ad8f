"""``python -m gwe_fast`` runs the ``gwe`` command."""

from gwe_fast.cli import main

main()
