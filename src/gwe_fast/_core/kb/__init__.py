"""The Kaiser's Battle compiled core (issue 28): tables, state, dice and the turn loop in C."""
