#!/usr/bin/env bash
# Install (if missing) and start a Milvus server on 127.0.0.1 for CI's Milvus pass; prints its MILVUS_URI.
#   start: bash .ci/milvus.sh        stop: bash .ci/milvus.sh stop
# Fresh data on every start. The launcher stops the server it started when it gets SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
SVC_DIR=$(realpath -m "${SVC_DIR:-/tmp/smartmate-services}")
MILVUS_PORT=${MILVUS_PORT:-19530}
PID_FILE="$SVC_DIR/milvus-launcher.pid"

if [ "${1:-start}" = "stop" ]; then
  if [ -f "$PID_FILE" ]; then
    pid=$(cat "$PID_FILE")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  exit 0
fi

"$VENV/bin/pip" install --quiet -r requirements-milvus.txt
mkdir -p "$SVC_DIR"
rm -rf "$SVC_DIR/milvus"
nohup "$VENV/bin/python" -m memory.vectorstore.milvus_server --data-dir "$SVC_DIR/milvus" --port "$MILVUS_PORT" \
  --pid-file "$PID_FILE" >"$SVC_DIR/milvus-launcher.out" 2>"$SVC_DIR/milvus-launcher.err" &
launcher=$!
for _ in $(seq 1200); do
  grep -q '^MILVUS_URI=' "$SVC_DIR/milvus-launcher.out" 2>/dev/null && break
  kill -0 "$launcher" 2>/dev/null || { cat "$SVC_DIR/milvus-launcher.err" >&2; exit 1; }
  sleep 0.1
done
grep '^MILVUS_URI=' "$SVC_DIR/milvus-launcher.out" || { echo "Milvus did not start in 120 s" >&2; exit 1; }
cat "$SVC_DIR/milvus-launcher.err" >&2
