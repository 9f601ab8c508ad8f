"""The Kaiser's Battle ladder policies: ``passive``, ``greedy`` and ``doctrine`` (issue 6)."""
