"""Tournaments: formats, pairings, standings and the manager that runs them."""
