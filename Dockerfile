# syntax=docker/dockerfile:1
# eSign partner app: multi-stage build of the standalone server (docs/deployment.md, "B. Container").
#   docker build -t esign-partner .
#   docker run --env-file /etc/esign-partner/env -p 3000:3000 --stop-timeout 30 esign-partner
# node:20-slim matches the Node 20 the app is built and tested on.

FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM node:20-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
# Leaves .next/standalone with .next/static and public/ copied in (scripts/complete-standalone-build.ts).
RUN npm run build

FROM node:20-slim AS run
WORKDIR /app
# METRICS_*: /metrics on its own port, on the container's network; publish it to the monitoring network only
# (docker run -p 127.0.0.1:9464:9464). NODE_OPTIONS: the heap cap that keeps RSS flat (docs/deployment.md, "Sizing").
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    METRICS_PORT=9464 \
    METRICS_HOSTNAME=0.0.0.0 \
    NODE_OPTIONS=--max-old-space-size=192
# Only the standalone folder: server.js, the traced node_modules and the build; no sources, no dev dependencies.
COPY --from=build --chown=node:node /app/.next/standalone ./
# The image's unprivileged user (uid 1000).
USER node
EXPOSE 3000 9464
# Readiness: "unhealthy" means this instance cannot serve (invalid configuration, or draining after SIGTERM);
# an outage of the service or Redis never makes it unhealthy. Orchestrators that restart on unhealthy should
# probe /api/health instead (see docs/operations.md).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM: readiness 503 for 5 s, then drains in-flight requests (≤ 25 s from the signal), exits 0: give it 30 s
# (docker --stop-timeout 30).
STOPSIGNAL SIGTERM
CMD ["node", "server.js"]
