"""The table's own state and rules, without Qt: PINs and their failure counter, seal codes."""
