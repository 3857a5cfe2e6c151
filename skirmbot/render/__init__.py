"""Pictures: the battlemap after an activation, a unit's stat card, and animated replays.

Rendering is a pure function of a match state (and the events of the last activation) to image
bytes: it never reads the database or Discord. Images are drawn straight into a fixed palette
(see `palette`), so encoding is fast and equal states give equal bytes.
"""
