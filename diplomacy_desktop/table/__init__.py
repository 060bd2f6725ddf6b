"""The table's own state and rules, without Qt (CONTRIBUTING.md, "Layers": the ``table/`` layer).

What a face-to-face game keeps besides the game itself: who plays which power, PINs (as hashes,
with their policy and one failure counter per power: ``pins``), the clock, seats, ballots, notes,
declarations, seal codes (``sealcodes``), and the one record of who has sealed, declared or voted,
on the laptop or on a phone.  ``gui`` and ``host`` both build on it; it imports only ``io`` and
``engine`` (``tests/test_layers.py``), and its tests run with PySide6 uninstalled.
"""
