"""The same numbered schema migrations as the folder above, in PostgreSQL's dialect: 64-bit
integers for Discord ids, double precision for times, identity columns, lower(name) indexes
where SQLite compares without case."""
