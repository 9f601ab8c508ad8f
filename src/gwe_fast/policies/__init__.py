"""Policies: they read the game and pick among the legal choices the engine offers."""

from gwe_fast.policies.base import Decision, IllegalChoice, Policy, RandomPolicy

__all__ = ["Decision", "IllegalChoice", "Policy", "RandomPolicy"]
