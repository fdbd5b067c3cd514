# A small image that runs the bot; the SQLite database lives on the /data volume.
#   docker build -t solo-automaton-bot .
#   docker run -d --name solo-bot --restart unless-stopped --log-opt max-size=10m --log-opt max-file=3 \
#       -e DISCORD_TOKEN=… -v solo-bot-data:/data solo-automaton-bot
# The commands are registered by the bot itself at start-up when they changed (README: "Command sync");
# `docker exec solo-bot python -m bot sync` forces it.
# Layers: the pinned dependencies (deploy/requirements.lock, `make lock`) first, so a code change reinstalls
# nothing; each with its hashes (--require-hashes: a release file that is not the one locked is refused); the project is built into a wheel in a throw-away stage and installed once, into /opt/solo: the
# image holds no other copy of the code, and the code that runs is the installed package.
FROM python:3.11-slim AS runtime

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore \
    SOLO_BOT_DB=/data/bot.sqlite3

COPY deploy/requirements.lock /tmp/requirements.lock
RUN pip install --no-deps --require-hashes -r /tmp/requirements.lock \
    && useradd --uid 10001 --home-dir /data --no-create-home --shell /usr/sbin/nologin bot \
    && mkdir -p /data && chown bot /data

FROM runtime AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
# setuptools comes from the lock (installed above): no build-time download, the same build every time.
RUN pip install --no-deps --no-build-isolation --target /opt/solo .

FROM runtime
COPY --from=build /opt/solo /opt/solo
ENV PYTHONPATH=/opt/solo
WORKDIR /data
USER bot
# No VOLUME: mount one (`-v solo-bot-data:/data`); an image VOLUME would leave an anonymous volume behind
# every container started without it.
# `python -m bot health`: the bot's heartbeat (next to the database) is fresh, every shard is connected to
# Discord (as /readyz says), and the database opens read-only. No Discord call, no write. (With
# SOLO_BOT_HTTP_PORT set, /healthz and /readyz answer too: deploy/compose.yaml checks /healthz.)
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "health"]
# Exec form: python is PID 1 and receives docker stop's SIGTERM itself (it drains, closes the store, exits 0).
# Without DISCORD_TOKEN it exits 2 with a clear message instead of starting the console on an empty stdin.
STOPSIGNAL SIGTERM
ENTRYPOINT ["python", "-m", "bot"]
CMD []
