#!/usr/bin/env bash
# Debian packages the tests use: chromium (browser tests, driven by Playwright),
# postgresql (the store's PostgreSQL run and the scale-out test), haproxy (deploy/'s
# proxy in front of two processes) and caddy (deploy/Caddyfile is checked with it); wrk
# (bench/bench_proxy_limits.py's client) and openssl (tests/server/test_proxy.py's
# self-signed certificate).
# Installs what is missing; needs root or sudo.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
command -v caddy >/dev/null 2>&1 || need+=(caddy)
command -v wrk >/dev/null 2>&1 || need+=(wrk)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
if [ ${#need[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    echo "system-deps: missing ${need[*]}; install them as root: apt-get install ${need[*]}" >&2
    exit 1
fi
echo "system-deps: installing ${need[*]} (Debian packages)"
"${SUDO[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -q "${need[@]}"
