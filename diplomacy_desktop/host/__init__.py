"""Serving a game to the phones at the table: the host model (``table``) and its HTTP and
WebSocket server (``server``).  No Qt: the window and ``diplomacy-desktop serve`` both use it."""
