"""Giving orders: clicks and keys turned into orders, the order and results panels, undo commands."""
