"""Statistics and reports over game records."""
