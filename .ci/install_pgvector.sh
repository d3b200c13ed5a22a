#!/usr/bin/env bash
# Installs pgvector into the machine's own PostgreSQL when the server does not offer it yet.
# Debian 12 has no pgvector package; trixie's source package builds against PostgreSQL 15 with PGXS.
set -euo pipefail
PSQL=(psql -X -q -t -A -h "${PGHOST:-127.0.0.1}" -p "${PGPORT:-5432}" -U "${PGUSER:-postgres}" -d postgres)
if [ "$("${PSQL[@]}" -c "select count(*) from pg_available_extensions where name='vector'")" = "1" ]; then
  echo "pgvector: already available"; exit 0
fi
major=$("${PSQL[@]}" -c "show server_version_num" | cut -c1-2)
echo "pgvector: building for PostgreSQL $major"
if ! grep -rqs "trixie" /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo "deb-src http://deb.debian.org/debian trixie main" > /etc/apt/sources.list.d/trixie-src.list
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "postgresql-server-dev-$major" build-essential dpkg-dev >/dev/null
work=$(mktemp -d)
(cd "$work" && apt-get source -qq pgvector >/dev/null 2>&1 && cd pgvector-*/ && make -s PG_CONFIG="/usr/lib/postgresql/$major/bin/pg_config" && make -s install PG_CONFIG="/usr/lib/postgresql/$major/bin/pg_config")
rm -rf "$work"
"${PSQL[@]}" -c "select default_version from pg_available_extensions where name='vector'"
