# syntax=docker/dockerfile:1
# Sunward: the compiled server (plain node, no tsx) with the built console, as a non-root user.
# The build stage runs the same npm commands as CI and `npm start`: `npm ci`, then `npm run build`
# (scripts/build.mjs: esbuild bundles of the server and simulator, Vite for the console).
# Checked without a registry by apps/server/src/container-files.test.ts (no image can be pulled there).

ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/simulator/package.json apps/simulator/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
COPY packages/protocol/package.json packages/protocol/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/simulator/package.json apps/simulator/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
COPY packages/protocol/package.json packages/protocol/
COPY e2e/package.json e2e/
# Production dependencies only: tsx, esbuild, Vite and the test tools stay in the build stage.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/simulator/dist apps/simulator/dist
COPY --from=build /app/apps/web/dist apps/web/dist
# npm run admin / backup / restore run the compiled tools through these (docker compose exec server npm run admin -- …).
COPY scripts scripts
RUN mkdir -p /data && chown node:node /data
USER node
# DATA_DIR holds the embedded database (when DATABASE_URL is unset), keys, firmware files and pictures.
# glibc's malloc gives allocations of 64 KB and more their own mapping, returned when freed (scripts/lib.mjs
# serverEnv, docs/decisions.md "Memory under overload").
ENV DATA_DIR=/data HOST=0.0.0.0 PORT=8080 MQTT_PORT=1883 SIMULATOR=off MALLOC_MMAP_THRESHOLD_=65536
VOLUME ["/data"]
EXPOSE 8080 1883
# Ready = the database answers, the broker is up, and the server is not migrating or draining.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
