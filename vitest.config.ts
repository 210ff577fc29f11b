import { defineConfig } from 'vitest/config';

// Two projects: unit tests need no engine; integration tests share one real engine per run
// (started by test/integration/global-setup.ts unless OPENSEARCH_URL is given) and isolate
// themselves with an index prefix per test file.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
