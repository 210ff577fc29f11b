import { defineConfig } from 'vitest/config';

// The cluster suite (`npm run test:cluster`): the real API and CLI processes against a local
// cluster of three engine nodes, one of which the tests kill and restart. It gets nodes of its own
// (test/cluster/global-setup.ts) and runs one file at a time.
export default defineConfig({
  test: {
    name: 'cluster',
    include: ['test/cluster/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/cluster/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
