# A small image that runs the bot; the SQLite database lives on the /data volume.
#   docker build -t solo-automaton-bot .
#   docker run -d --name solo-bot -e DISCORD_TOKEN=… -v solo-bot-data:/data solo-automaton-bot
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
CMD ["python", "-m", "bot"]
