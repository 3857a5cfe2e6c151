"""Dice for everyone on the server: `/roll` expressions, roll-offs, Tactical Orders and attack
odds. Pure modules (no Discord); `cogs/dice.py` puts them on slash commands."""
