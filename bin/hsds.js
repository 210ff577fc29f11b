#!/usr/bin/env -S node --max-semi-space-size=8
// `npx hsds <command>`: the operator CLI. npm puts the project's Node 24 first on the PATH, which
// runs the TypeScript sources directly (type stripping). A small young generation keeps the peak
// memory of long imports and of the server close to what they really hold (see bench/).
import '../src/cli/main.ts';
