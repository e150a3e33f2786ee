import { defineConfig } from 'vitest/config';

/**
 * The test run Stryker uses (`pnpm mutation`): only the conformance suite, because the mutation
 * score measures how much of the memory driver's behaviour the suite itself pins down. Stryker
 * runs it from a sandbox copy of this package, so it cannot import `tooling/vitest/project.ts`;
 * it repeats that file's `@x/source` conditions instead.
 */
export default defineConfig({
  ssr: { resolve: { conditions: ['@x/source'] } },
  resolve: { conditions: ['@x/source'] },
  test: {
    include: ['test/conformance.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
