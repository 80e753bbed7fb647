#!/usr/bin/env bash
# The README's production sequence on a fresh clone, with the dev dependencies gone at run time:
# install → build → `npm prune --omit=dev` → NODE_ENV=production npm start → /healthz and / answer →
# SIGTERM → exit 0. Used by .ci/run; bounded in time; touches only 127.0.0.1 and a temp dir.
# The `node` package (the pinned Node 24) is an optional dependency, which the prune keeps: the
# server runs on it, whatever the machine's Node.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

git clone -q "$repo" "$work/pipit"
cd "$work/pipit"
npm install --no-audit --no-fund --loglevel=error
npm run build --silent
npm prune --omit=dev --no-audit --no-fund --loglevel=error
for tool in tsx vite esbuild typescript vitest; do
  if [ -e "node_modules/$tool" ]; then echo "check-production: dev dependency $tool is still installed after prune" >&2; exit 1; fi
done

# What `npm start` runs (package.json), without npm's process in between, so SIGTERM reaches the server itself.
node="$PWD/node_modules/.bin/node"
[ -x "$node" ] || { echo "check-production: node_modules/.bin/node (the pinned Node) is missing after prune" >&2; exit 1; }
echo "check-production: the server runs on Node $("$node" --version) (node_modules/.bin/node)"
port="$("$node" -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
NODE_ENV=production AUTH_SECRET="$("$node" -e "console.log(require('node:crypto').randomBytes(32).toString('hex'))")" \
  PORT="$port" HOST=127.0.0.1 DATA_DIR="$work/data" LOG_LEVEL=warn \
  "$node" --liftoff-only --max-semi-space-size=16 scripts/start.mjs > "$work/server.log" 2>&1 &
server_pid=$!

up=""
for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$port/healthz" > /dev/null 2>&1; then up=1; break; fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.5
done
if [ -z "$up" ]; then echo "check-production: the server did not come up" >&2; cat "$work/server.log" >&2; exit 1; fi
curl -fsS "http://127.0.0.1:$port/healthz"; echo
curl -fsS "http://127.0.0.1:$port/" | grep -q '<div id="root"' || { echo "check-production: / did not serve the web app" >&2; exit 1; }
kill -TERM "$server_pid"
status=0; wait "$server_pid" || status=$?
server_pid=""
[ "$status" -eq 0 ] || { echo "check-production: exit $status after SIGTERM" >&2; cat "$work/server.log" >&2; exit 1; }
echo "check-production: compiled server ran without dev dependencies, answered /healthz and /, stopped cleanly"
