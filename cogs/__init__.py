"""skirmbot's Discord cogs: thin glue from interactions to the match service and back.

One extension per feature area (see skirmbot.bot.EXTENSIONS): `errors` (the one error handler),
`buttons` (persistent buttons), `matches` (/match ...), `play` (/move, /shoot, ...). Shared
helpers live in `common`, which is not an extension.
"""
