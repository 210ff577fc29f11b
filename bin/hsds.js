#!/usr/bin/env -S node --max-semi-space-size=8
// `npx hsds <command>`: the operator CLI. npm puts the project's Node 24 first on the PATH, which
// runs the TypeScript sources directly (type stripping). A smaller young generation keeps a long
// import's peak memory nearer what it really holds (flat: it does not grow with the source): 100,000
// UK services peaked at 487 MB, 619 MB with Node's defaults, for the same CPU (79 and 77 s).
// No old-space cap: any --max-old-space-size (256, 512, 1024 tried) made V8 collect so eagerly
// that the same import took 98-120 s of CPU and 170-185 s instead of 158 s, for about 300-420 MB.
// The API (`serve`) peaked at 207 MB under search, lookups and a full dump, 194 MB with a 256 MB cap.
import '../src/cli/main.ts';
