# a2a-rig in a container: the rig (`run`, `conform`, `report`, ...) and the reference agent
# (`agent`), from the same image, kept to the plain steps a fresh clone takes: npm ci, the build of
# dist/ (scripts/build.mjs), then the compiled CLI. Built and run by test/deploy.compose.test.ts (through docker-compose.yml); without a
# registry, deploy/prepare-images.sh provides node:20-slim.
#
#   docker build -t a2a-rig .
#   docker run --rm --network host a2a-rig run --target http://127.0.0.1:8080 --toxiproxy http://127.0.0.1:8474

FROM node:20-slim AS deps
WORKDIR /app
# better-sqlite3 normally installs a prebuilt binary; the toolchain is the fallback when none fits.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# The package's `prepare` runs the build, which finds no sources yet and does nothing: they come in
# the next stage, so that this layer stays cached across source edits.
COPY scripts ./scripts
RUN npm ci --omit=dev --no-audit --no-fund

FROM deps AS build
COPY scripts ./scripts
COPY rig ./rig
COPY scenarios ./scenarios
RUN node scripts/build.mjs

FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY --from=build /app/dist ./dist
# results/ for runs, /data for the agent's outbox (a named volume takes this ownership).
RUN mkdir -p /app/results /data && chown node:node /app/results /data
USER node
ENTRYPOINT ["node", "bin/a2a-rig.js"]
CMD ["--help"]
