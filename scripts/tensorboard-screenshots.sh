#!/usr/bin/env bash
# Screenshots of TensorBoard on the example's run for docs/tensorboard.md (docs/images/tensorboard-*.png):
# runs examples/07-tensorboard.ts into a fresh log directory, serves it with the venv's `tensorboard` on
# 127.0.0.1, and captures the scalars and graphs dashboards with headless Debian Chromium.
# Run after `npx tsc -b`: scripts/tensorboard-screenshots.sh [path/to/venv/bin]
set -euo pipefail
cd "$(dirname "$0")/.."
VENV_BIN="${1:-/work/main/.venv-tf/bin}"
PORT="${PORT:-16106}"
LOGDIR="$(mktemp -d)"
node -r ./scripts/register-ts.js examples/07-tensorboard.ts --logdir "$LOGDIR" > /dev/null
"$VENV_BIN/tensorboard" --logdir "$LOGDIR" --host 127.0.0.1 --port "$PORT" > "$LOGDIR/tensorboard.log" 2>&1 &
TB_PID=$!
trap 'kill "$TB_PID" 2>/dev/null || true; rm -rf "$LOGDIR"' EXIT
for _ in $(seq 1 60); do
  curl -sf "http://127.0.0.1:$PORT/data/runs" | grep -q train && break
  sleep 1
done
for pair in scalars:scalars graphs:graph; do
  tab="${pair%%:*}"
  out="docs/images/tensorboard-${pair##*:}.png"
  /usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
    --disable-sync --no-first-run --window-size=1280,940 --virtual-time-budget=15000 \
    --screenshot="$PWD/$out" "http://127.0.0.1:$PORT/#$tab" 2>/dev/null
  echo "wrote $out"
done
