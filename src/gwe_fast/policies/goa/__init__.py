"""The Guns of August's ladder of policies: passive, greedy, historical (and look-ahead)."""
