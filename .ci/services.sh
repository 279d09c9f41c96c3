#!/usr/bin/env bash
# Install (if missing) and start Redis + MariaDB on 127.0.0.1; safe to run repeatedly.
#   start: bash .ci/services.sh        stop: bash .ci/services.sh stop
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SVC_DIR=$(realpath -m "${SVC_DIR:-/tmp/smartmate-services}")   # absolute and short (socket path < 107 chars)
REDIS_PORT=${REDIS_PORT:-6379}
MYSQL_PORT=${MYSQL_PORT:-3306}
MYSQL_SOCK="$SVC_DIR/mysqld.sock"

if [ "${1:-start}" = "stop" ]; then
  [ -f "$SVC_DIR/mysqld.pid" ] && kill "$(cat "$SVC_DIR/mysqld.pid")" 2>/dev/null || true
  [ -f "$SVC_DIR/redis.pid" ] && kill "$(cat "$SVC_DIR/redis.pid")" 2>/dev/null || true
  exit 0
fi

APT_PKGS="redis-server mariadb-server default-libmysqlclient-dev pkg-config build-essential ${EXTRA_APT_PKGS:-}"
missing=""
for p in $APT_PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
mkdir -p "$SVC_DIR"

if ! redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG; then
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --daemonize yes --save '' --appendonly no \
    --dir "$SVC_DIR" --pidfile "$SVC_DIR/redis.pid" --logfile "$SVC_DIR/redis.log"
  for _ in $(seq 100); do redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done
fi
redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping | grep -q PONG

# A fresh private datadir on every cold start (mariadbd resolves relative paths against /usr).
if ! mariadb-admin --socket="$MYSQL_SOCK" -uroot ping >/dev/null 2>&1; then
  rm -rf "$SVC_DIR/mysql"
  mariadb-install-db --user=root --datadir="$SVC_DIR/mysql" --auth-root-authentication-method=socket \
    --skip-test-db >"$SVC_DIR/install-db.log" 2>&1
  nohup mariadbd --no-defaults --user=root --datadir="$SVC_DIR/mysql" --socket="$MYSQL_SOCK" \
    --port="$MYSQL_PORT" --bind-address=127.0.0.1 --skip-name-resolve --max-connections=500 \
    --pid-file="$SVC_DIR/mysqld.pid" --log-error="$SVC_DIR/mysqld.err" >/dev/null 2>&1 &
  for _ in $(seq 300); do mariadb-admin --socket="$MYSQL_SOCK" -uroot ping >/dev/null 2>&1 && break; sleep 0.1; done
fi
mariadb --socket="$MYSQL_SOCK" -uroot <<'SQL'
CREATE DATABASE IF NOT EXISTS smartmate CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS 'smartmate'@'127.0.0.1' IDENTIFIED BY 'smartmate';
CREATE USER IF NOT EXISTS 'smartmate'@'localhost' IDENTIFIED BY 'smartmate';
GRANT ALL PRIVILEGES ON *.* TO 'smartmate'@'127.0.0.1';
GRANT ALL PRIVILEGES ON *.* TO 'smartmate'@'localhost';
SQL
echo "services up: redis 127.0.0.1:$REDIS_PORT, mariadb 127.0.0.1:$MYSQL_PORT (dir $SVC_DIR)"
