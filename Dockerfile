# syntax=docker/dockerfile:1
# The connector image (the sandboxes ride along for the demo profile of compose.yaml). Its build
# steps are scripts/release.sh, which CI runs and smoke-tests with `node` (scripts/release-smoke.ts),
# since no container engine runs there: the image is that release folder on Node 24.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund && scripts/release.sh /release

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    CONNECTOR_HOST=0.0.0.0 \
    CONNECTOR_PORT=8787
WORKDIR /app
# Owned by root, run as `node`: the code cannot be changed by the process running it.
COPY --from=build /release/ /app/
USER node
EXPOSE 8787
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.CONNECTOR_PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "apps/connector/dist/main.js"]
