"""Pictures: the battlemap after an activation, a unit's stat card, and animated replays.

Rendering is a pure function of a ruleset's view of a match (`skirmbot.rules.view`: MatchView,
CardView; and the events of the last activation) to image bytes: it never reads a ruleset's
state, the database or Discord, and knows no rulebook. Images are drawn straight into a fixed
palette (see `palette`), so encoding is fast and equal views give equal bytes.
"""
