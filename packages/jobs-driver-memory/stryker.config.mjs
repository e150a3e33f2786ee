/**
 * Mutation testing of the memory driver with the conformance suite as the only test run
 * (`pnpm mutation`). The score and the surviving mutants are recorded in
 * packages/jobs-conformance/README.md ("Mutation score").
 *
 * Mutated: the driver's contract files. Not mutated: `src/testing/**` (the app test harness, not
 * the JobDriver contract), the `index.ts` re-export barrel, `errors.ts` (error-class
 * declarations), and `binary-heap.ts` (a generic priority queue with its own unit tests; the
 * claim order it serves is mutated through `claim-index.ts`), and `virtual-clock.ts` (the
 * injectable test clock, not the JobDriver contract: the suite only calls its `advance`, and its
 * own unit tests pin `set`, `advance(0)` and its errors).
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  // pnpm does not hoist the plugins next to @stryker-mutator/core, so name them.
  plugins: ['@stryker-mutator/vitest-runner', '@stryker-mutator/typescript-checker'],
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  // The TypeScript checker halves the test runners (1 checker + 1 runner at concurrency 2) and
  // made the run ~3 h here; without it, ill-typed mutants simply run (esbuild strips types).
  checkers: [],
  tsconfigFile: 'tsconfig.test.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  concurrency: 2,
  // A mutant "times out" when its run takes longer than net time × 1.5 + timeoutMS. With the
  // default 5 s, a loaded shared machine timed out 25 ordinary runs in one pass (each counted as
  // detected, and each restarting its runner); 20 s leaves only real hangs as timeouts.
  timeoutMS: 20_000,
  mutate: [
    'src/**/*.ts',
    '!src/**/*.test.ts',
    '!src/**/*.test-d.ts',
    '!src/testing/**',
    '!src/index.ts',
    '!src/errors.ts',
    '!src/binary-heap.ts',
    '!src/virtual-clock.ts',
  ],
  // In a sandbox copy vitest found no tests here ("No tests were found"); mutate in place
  // instead: Stryker restores the files when it ends, even on Ctrl-C (it keeps a backup in
  // .stryker-tmp). Do not edit src/ while it runs.
  inPlace: true,
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'html', 'json', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
