#!/usr/bin/env bash
# Builds the release folder an operator runs (and the Dockerfile copies): the connector and both
# sandboxes as plain JavaScript, each with the files it reads beside it (migrations, admin page,
# sidebar), and node_modules holding production dependencies only, at the lockfile's versions.
# Needs the repository's dependencies installed (npm ci). Run from anywhere:
#   scripts/release.sh [release dir, default ./release]
#   node --enable-source-maps <release>/apps/connector/dist/main.js
# REUSE_BUILD=1 takes the services' dist folders as `npm run build` left them (CI builds once,
# first) instead of building again.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-release}"
services=(apps/connector packages/zendesk-sandbox packages/incident-sandbox)

if [ "${REUSE_BUILD:-}" = 1 ]; then
  for service in "${services[@]}"; do
    [ -f "$service/dist/main.js" ] || { echo "REUSE_BUILD=1 but $service is not built" >&2; exit 1; }
  done
else
  npm run build --silent
fi

rm -rf "$out"
mkdir -p "$out"
for service in "${services[@]}"; do
  mkdir -p "$out/$service"
  cp -R "$service/dist" "$out/$service/dist"
done

npx tsx scripts/release-manifest.ts "$out"
# The repository's lockfile, pruned by npm to what the release's package.json needs.
cp package-lock.json "$out/package-lock.json"
(
  cd "$out"
  # No install scripts: no production dependency needs one (Prisma's client is generated and
  # bundled at build time).
  npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
)
echo "release written to $out ($(du -sh "$out" | cut -f1))"
