"""The pure rules core: no I/O, no asyncio, no clock, no global random.

Given a state and a command, the engine returns the events that happened (and updates the state),
or raises a RulesError whose message tells a player why the command is illegal.
"""
