#!/usr/bin/env bash
# The Docker check (issue 27): build the image from the Dockerfile as a user would and run it against the
# stand-in for Discord (tests/docker, pytest -m docker). Run from anywhere; .ci/run runs it after make test.
#   - a Docker engine: the running one, else Debian's docker.io started here (root; no iptables, no default
#     bridge: every container of the check uses the host's network and talks to 127.0.0.1 only), stopped at
#     the end;
#   - the base images: python:3.11-slim and postgres:16 as they are, else pulled, else (no registry can be
#     reached) built from Debian's packages by deploy/base-image.sh;
#   - the project's image from the Dockerfile, unchanged (the build on the host's network, so pip reaches
#     the package index with this machine's settings);
#   - then tests/docker with the test venv (make .venv/.installed).
# It prints how long each step took.
set -euo pipefail
cd "$(dirname "$0")/.."
image=solo-automaton-bot:check
started_engine=""
step_began=$(date +%s)
step() { local now; now=$(date +%s); echo "docker check: $1 ($((now - step_began)) s)"; step_began=$now; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
install() {
    export DEBIAN_FRONTEND=noninteractive
    [ -n "${apt_updated:-}" ] || { as_root apt-get update -qq; apt_updated=1; }
    as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
cleanup() {
    if [ -n "$started_engine" ]; then
        # $! is the shell that runs as_root, not always dockerd itself: stop the engine by the pid it wrote.
        [ -f /var/run/docker.pid ] && as_root kill "$(cat /var/run/docker.pid)" 2>/dev/null || true
        kill "$started_engine" 2>/dev/null || true
        wait "$started_engine" 2>/dev/null || true
    fi
}
trap cleanup EXIT

if ! docker info >/dev/null 2>&1; then
    command -v dockerd >/dev/null || install docker.io
    command -v docker >/dev/null || install docker.io
    log=$(mktemp)
    as_root dockerd --iptables=false --bridge=none >"$log" 2>&1 &
    started_engine=$!
    for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
    docker info >/dev/null 2>&1 || { tail -20 "$log" >&2; exit 1; }
    step "started a Docker engine ($(docker version --format '{{.Server.Version}}'))"
fi
if docker compose version >/dev/null 2>&1; then compose="docker compose"
else command -v docker-compose >/dev/null || install docker-compose; compose=docker-compose; fi

base_image() {  # $1: the image, $2: deploy/base-image.sh's kind
    docker image inspect "$1" >/dev/null 2>&1 && return
    if timeout 60 docker pull -q "$1" >/dev/null 2>&1; then step "pulled $1"; return; fi
    command -v debootstrap >/dev/null || install debootstrap
    deploy/base-image.sh "$2"
    step "built $1 from Debian's packages (no registry reached)"
}
base_image python:3.11-slim python
base_image postgres:16 postgres

docker build --network host -q -t "$image" . >/dev/null
step "built $image from the Dockerfile"
make --no-print-directory .venv/.installed >/dev/null
export SOLO_BOT_CHECK_IMAGE=$image SOLO_BOT_CHECK_COMPOSE=$compose SOLO_BOT_IMAGE=$image
.venv/bin/python -m pytest tests/docker -m docker -p no:cacheprovider -rA "$@"
step "ran tests/docker"
