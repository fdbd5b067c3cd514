# A small image that runs the bot; the SQLite database lives on the /data volume.
#   docker build -t solo-automaton-bot .
#   docker run -d --name solo-bot --restart unless-stopped -e DISCORD_TOKEN=… -v solo-bot-data:/data solo-automaton-bot
#   docker exec solo-bot python -m bot sync            # once, and after command changes
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SOLO_BOT_DB=/data/bot.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
RUN pip install --no-cache-dir . \
    && useradd --system --uid 10001 --home /app bot \
    && mkdir -p /data && chown bot /data

USER bot
VOLUME ["/data"]
# `python -m bot health`: the bot's heartbeat (next to the database) is fresh, it is connected to Discord,
# and the database opens read-only. No Discord call, no write. (With SOLO_BOT_HTTP_PORT set, /healthz and
# /readyz answer too: deploy/compose.yaml checks /healthz.)
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "health"]
# Exec form: python is PID 1 and receives docker stop's SIGTERM itself (it drains, closes the store, exits 0).
# Without DISCORD_TOKEN it exits 2 with a clear message instead of starting the console on an empty stdin.
STOPSIGNAL SIGTERM
ENTRYPOINT ["python", "-m", "bot"]
CMD []
