#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=150
// `npx hsds <command>`: the operator CLI. npm puts the project's Node 24 first on the PATH, which
// runs the TypeScript sources directly (type stripping). A smaller young generation keeps a long
// import's peak memory nearer what it really holds (flat: it does not grow with the source): 100,000
// UK services peaked at 487 MB, 619 MB with Node's defaults, for the same CPU (79 and 77 s).
// No old-space cap: any --max-old-space-size (256, 512, 1024 tried) made V8 collect so eagerly
// that the same import took 98-120 s of CPU and 170-185 s instead of 158 s, for about 300-420 MB.
// What a cap changes is how far V8 lets the old generation grow past what a full collection left
// alive: with no cap up to 4 times (an import holds about 70 MB, and its heap grew to 270 MB
// before each full collection); a cap of 1 GB or less lowers that (10,000 services: 52 full
// collections with a 1 GB cap, 15 without). --heap-growing-percent=150 sets 2.5 times, cap or
// none. 10,000 UK services, runs in turns (2026-11-28): peak RSS 341 and 342 MB against 429-453 MB,
// CPU 30.0 and 31.0 s against 29.8-31.7 s (23 full collections against 15); 100 (2 times) gave
// 294-311 MB but 37-39 s of CPU. At 30,000 services it does cost CPU (2026-11-28, in turns, a
// million-service import beside them): --max-semi-space-size=8 alone 98.2 and 103.2 s, 463 and
// 506 MB; with --heap-growing-percent=150 106.1 and 112.9 s, 352 and 358 MB (about 8% more CPU,
// a quarter less memory; wall time +1.4%, the engine's work unchanged). Kept for the memory: a
// million peaked at 471 MB with it, 605-671 MB without (issue 31 asks for 400).
// The API (`serve`) peaked at 207 MB under search, lookups and a full dump, 194 MB with a 256 MB cap.
import '../src/cli/main.ts';
