# One image for every part; SERVICES picks what a container runs (api, worker, sandbox).
FROM node:24-bookworm-slim
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-pip ca-certificates && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
# The client package is a dependency (file:clients/typescript): its manifest is needed by npm ci.
COPY clients/typescript/package.json ./clients/typescript/
# The Temporal CLI is not needed in containers (TEMPORAL_ADDRESS points at the cluster).
ENV TEMPORAL_CLI_PATH=/bin/true
RUN npm ci --no-audit --no-fund
COPY . .
# The service runs compiled: dist/ from tsconfig.build.json (npm ci above skipped the build: no sources yet).
RUN npm run build && npm run build:workflows
# Workers load the workflow code bundled above (docs/operations.md) instead of bundling it at each start.
ENV WORKFLOW_BUNDLE=/app/dist/workflow-bundle.js
# The dashboard needs its sources, copied just above, and the client generated from them: built
# here rather than at npm ci.
RUN npm run client:generate && npm run dashboard:build
ENV NODE_ENV=production HOST=0.0.0.0
EXPOSE 3000 3100
CMD ["node", "dist/src/main.js"]
