# syntax=docker/dockerfile:1
# The connector image (the sandboxes ride along for the demo profile of compose.yaml). Its build
# steps are scripts/release.sh, which CI runs and smoke-tests with `node` (scripts/release-smoke.ts),
# since no container engine runs there: the image is that release folder on Node 24.
# scripts/test/dockerfile.test.ts holds this file to that (and to the order below).

# node:24-bookworm-slim (Node 24.18.0), pinned by digest so a rebuild starts from the same base;
# change tag and digest together.
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# The manifests, the lockfile and the Prisma schema (packages/db's install generates its client)
# first: a change of the sources alone reuses the installed dependencies.
COPY package.json package-lock.json .npmrc ./
COPY prisma/ prisma/
COPY scripts/check-node.mjs scripts/
COPY apps/admin/package.json apps/admin/
COPY apps/connector/package.json apps/connector/
COPY apps/sidebar/package.json apps/sidebar/
COPY chaos/package.json chaos/
COPY e2e/package.json e2e/
COPY packages/admin-contract/package.json packages/admin-contract/
COPY packages/client-core/package.json packages/client-core/
COPY packages/db/package.json packages/db/
COPY packages/incident-api/package.json packages/incident-api/
COPY packages/incident-sandbox/package.json packages/incident-sandbox/
COPY packages/sidebar-contract/package.json packages/sidebar-contract/
COPY packages/state-file/package.json packages/state-file/
COPY packages/threat-text/package.json packages/threat-text/
COPY packages/zendesk-api/package.json packages/zendesk-api/
COPY packages/zendesk-sandbox/package.json packages/zendesk-sandbox/
RUN npm ci --no-audit --no-fund
COPY . .
RUN scripts/release.sh /release

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    CONNECTOR_HOST=0.0.0.0 \
    CONNECTOR_PORT=8787
WORKDIR /app
# Owned by root, run as `node`: the code cannot be changed by the process running it. Secrets come
# from the environment or, as Docker and Kubernetes mount them, from files (<NAME>_FILE).
COPY --from=build /release/ /app/
USER node
EXPOSE 8787
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.CONNECTOR_PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "apps/connector/dist/main.js"]
