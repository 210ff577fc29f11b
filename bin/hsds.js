#!/usr/bin/env -S node --max-semi-space-size=8 --max-old-space-size=256
// `npx hsds <command>`: the operator CLI. npm puts the project's Node 24 first on the PATH, which
// runs the TypeScript sources directly (type stripping). The heap flags keep a long import's peak
// memory near what it really holds (~55 MB live): 582 MB peak at 100,000 services with Node's
// defaults, about 250 MB with these (npm run bench:ingest -- --node-flags=...).
import '../src/cli/main.ts';
