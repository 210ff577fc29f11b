#!/usr/bin/env node
// `npx hsds <command>`: the operator CLI. npm puts the project's Node 24 first on the PATH, which
// runs the TypeScript sources directly (type stripping).
import '../src/cli/main.ts';
