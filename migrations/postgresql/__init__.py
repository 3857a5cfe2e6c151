"""The same numbered schema migrations as the folder above, in PostgreSQL's dialect: 64-bit
integers for Discord ids, double precision for times, identity columns. Names are unique by the
key the store writes (009), on both databases alike."""
