#!/usr/bin/env bash
# Build a local stand-in for a registry image from Debian's packages, for machines that reach Debian's and
# PyPI's package mirrors but no image registry (deploy/check-image.sh calls it when a pull fails):
#   deploy/base-image.sh python   → python:3.11-slim   (Debian bookworm's python3.11 as `python`, pip usable)
#   deploy/base-image.sh postgres → postgres:16        (Debian's PostgreSQL 15 behind the same POSTGRES_*
#                                                       variables and entry point the real image has)
# The Debian mirror is the one this machine's apt uses (never a name written here). Where TLS is intercepted
# by a proxy, the machine's extra CA certificates (/usr/local/share/ca-certificates) go into the image so pip
# can reach the package index; pip's own settings come from the environment at `docker build` time.
set -euo pipefail
kind=${1:?python or postgres}
here=$(cd "$(dirname "$0")" && pwd)
mirror=$( (cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null || true) \
    | grep -oE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' | head -1 | awk '{print $2}')
[ -n "$mirror" ] || { echo "no Debian mirror in /etc/apt/sources.list*: cannot debootstrap" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
case $kind in
    python) tag=python:3.11-slim; packages=python3,python3-pip,python3-venv,python-is-python3,ca-certificates ;;
    postgres) tag=postgres:16; packages=postgresql,ca-certificates ;;
    *) echo "unknown base image $kind" >&2; exit 2 ;;
esac
echo "building $tag from Debian bookworm ($mirror)" >&2
debootstrap --variant=minbase --include="$packages" bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null 2>&1
fi
# As in the official image: pip installs into the system Python (no PEP 668 marker), nothing cached.
rm -f "$root"/usr/lib/python3*/EXTERNALLY-MANAGED
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
case $kind in
    python)
        tar -C "$root" -c . | docker import \
            -c 'ENV LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            -c 'CMD ["python3"]' - "$tag" >/dev/null ;;
    postgres)
        install -m 0755 "$here/postgres-entrypoint.sh" "$root/usr/local/bin/docker-entrypoint.sh"
        tar -C "$root" -c . | docker import \
            -c 'ENV LANG=C.UTF-8 PGDATA=/var/lib/postgresql/data PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            -c 'ENTRYPOINT ["docker-entrypoint.sh"]' -c 'CMD ["postgres"]' \
            -c 'EXPOSE 5432' - "$tag" >/dev/null ;;
esac
echo "built $tag" >&2
