# One image for every role: `npm start` (all-in-one), start:api, start:worker.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY api/package.json api/
COPY engine/package.json engine/
COPY tiles-cache/package.json tiles-cache/
COPY migrations/package.json migrations/
COPY fixtures/package.json fixtures/
COPY web/package.json web/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
ENV PORT=8080
EXPOSE 8080
CMD ["npm", "run", "start:api"]
