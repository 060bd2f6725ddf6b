"""The table's own state and rules, no Qt (STYLE.md layers: table -> io, engine)."""
