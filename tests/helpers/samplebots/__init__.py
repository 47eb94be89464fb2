"""Agents of a user's own, loaded by dotted path in the tests (`samplebots.bots:LastBot`)."""
