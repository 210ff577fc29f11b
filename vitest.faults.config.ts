import { defineConfig } from 'vitest/config';

// The fault suite (`npm run test:faults`): the real API process against a real engine that the
// tests kill, freeze and restart. It gets an engine of its own (test/faults/global-setup.ts), never
// the integration suite's, and runs one file at a time: the faults are machine-wide.
export default defineConfig({
  test: {
    name: 'faults',
    include: ['test/faults/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/faults/global-setup.ts'],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
