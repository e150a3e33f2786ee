import { defineProject, mergeConfig, type UserWorkspaceConfig } from 'vitest/config';

/**
 * The vitest project every package uses: node environment, tests beside the code, and the
 * `@x/source` export condition so sibling packages resolve to their TypeScript source (no build
 * needed before testing).
 */
export function xProject(name: string, overrides: UserWorkspaceConfig = {}): UserWorkspaceConfig {
  return mergeConfig(
    defineProject({
      // Vitest 4 runs node tests in the "ssr" environment: plain resolve.conditions is not enough.
      ssr: { resolve: { conditions: ['@x/source'] } },
      resolve: { conditions: ['@x/source'] },
      test: {
        name,
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        environment: 'node',
        testTimeout: 20_000,
        hookTimeout: 60_000,
      },
    }),
    overrides,
  );
}
