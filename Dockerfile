# skirmbot: the Discord bot in a small image. Build: docker build -t skirmbot .
# Run: docker run -d --name skirmbot -e DISCORD_TOKEN=... -v skirmbot-data:/data skirmbot
# (docs/deploy.md has the whole story.)
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

# Install the project itself (not editable, no dev extras), then drop the sources.
# The build context is only what .dockerignore lets through (no venv, tests, caches, *.db, .env).
COPY . /tmp/skirmbot-src
RUN pip install /tmp/skirmbot-src && rm -rf /tmp/skirmbot-src

# A non-root user that owns the data volume; the SQLite database (and its WAL files) live there.
RUN useradd --system --uid 10001 --user-group --create-home --home-dir /home/skirmbot skirmbot \
    && mkdir /data && chown skirmbot:skirmbot /data
ENV SKIRMBOT_DB=/data/skirmbot.db
VOLUME /data

USER skirmbot
WORKDIR /home/skirmbot

# Exec form: the bot is PID 1 and gets docker stop's SIGTERM itself, and shuts down cleanly.
STOPSIGNAL SIGTERM
CMD ["skirmbot", "run"]
