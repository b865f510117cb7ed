"""Hostile input for every command, option, autocomplete and button of the bot (see docs/robustness.md)."""
