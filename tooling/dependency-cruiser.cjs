/**
 * The dependency rule of DESIGN.md §1, enforced on every `pnpm test`:
 * jobs-core imports no other @x package; drivers, outbox, scheduler and conformance import only
 * @x/jobs-core (so do backfill, consumer, webhooks and the dashboard; their tests may import more); no driver imports another
 * driver.
 */
const restricted =
  'jobs-(?:driver-memory|driver-pg|driver-redis|outbox|scheduler|conformance|backfill|dashboard|consumer|webhooks)';
const nonTest = '\\.test(-d)?\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-unresolvable-import',
      comment: 'An import that resolves nowhere is a missing dependency (or a rule dodged by a typo).',
      severity: 'error',
      from: { path: '^(packages|apps)/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'core-imports-no-x-package',
      comment: '@x/jobs-core is the root of the graph: it imports no other @x package.',
      severity: 'error',
      from: { path: '^packages/jobs-core/src' },
      to: { path: '^packages/(?!jobs-core/)[^/]+/' },
    },
    {
      name: 'libraries-import-only-core',
      comment: 'A driver, the outbox, the scheduler and the conformance suite import only @x/jobs-core.',
      severity: 'error',
      from: { path: `^packages/(${restricted})/src`, pathNot: nonTest },
      to: { path: '^packages/[^/]+/', pathNot: '^packages/(jobs-core|$1)/' },
    },
    {
      name: 'no-driver-imports-a-driver',
      comment: 'No driver imports another driver, not even in its tests.',
      severity: 'error',
      from: { path: '^packages/(jobs-driver-[a-z]+)/' },
      to: { path: '^packages/jobs-driver-[a-z]+/', pathNot: '^packages/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@x/source', 'import', 'types', 'default'],
      extensions: ['.ts', '.js', '.json'],
    },
    tsConfig: { fileName: 'tsconfig.base.json' },
  },
};
