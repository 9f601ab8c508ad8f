"""The Kaiser's Battle ladder policies: ``passive``, ``greedy`` and ``doctrine``."""
