"""The table game: hot seat and curtain, clock, New Game and draw dialogs, autosave and recent files."""
