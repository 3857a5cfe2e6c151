"""Numbered SQL schema migrations (NNN_name.sql), shipped as package data and applied in order by
skirmbot.store.migrate at start-up."""
