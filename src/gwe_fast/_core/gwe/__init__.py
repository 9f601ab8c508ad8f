"""The Great War in the East compiled core (issue 28): tables, state, dice and phases in C."""
