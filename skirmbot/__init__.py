"""skirmbot: play the Skirm miniature skirmish wargame play-by-post."""

__version__ = "0.1.0"
