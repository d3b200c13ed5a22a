#!/usr/bin/env bash
# Debian's PgBouncer for the scale-out test (tests/scaleout/), which runs its own instance in front of a
# PostgreSQL it starts itself. Only the binary is wanted: the package's own service must not start.
set -euo pipefail
if command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ]; then exit 0; fi
# `make test` calls this: root installs directly, anyone else through sudo.
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
# A policy-rc.d that answers 101 keeps the package from starting its service (port 6432) on install;
# one the machine already has is left alone.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod +x /usr/sbin/policy-rc.d
  trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
fi
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null
/usr/sbin/pgbouncer --version | head -1
