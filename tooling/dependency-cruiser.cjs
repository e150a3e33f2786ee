/**
 * The dependency rule of DESIGN.md §1, enforced on every `pnpm test`:
 * jobs-core imports no other @x package; drivers, outbox, scheduler and conformance import only
 * @x/jobs-core (so do backfill, consumer, webhooks and the dashboard; their tests may import more); no driver imports another
 * driver.
 */
const nonTest = '\\.test(-d)?\\.ts$';

/**
 * The floors of @x/jobs-core/src, top to bottom (DESIGN.md §11): a folder imports only folders
 * below it, type imports included. `declare` holds the app's verbs (`job`, `defineJobs`); `worker`
 * the claim loop; `attempt` one claimed row's phases and settle; `caller` what runs in the app's
 * process (await, cancel, publish); `steps` the durable steps; `enqueue`; `ambient` the process's
 * installed driver, facade and current run; `registry`; `job` the definition model; then the base.
 * Tests may import any floor (they drive the whole job from `job()` down).
 */
const coreFloors = [
  'declare',
  'replay-check',
  'worker',
  'attempt',
  'caller',
  'steps',
  'enqueue',
  'ambient',
  'registry',
  'job',
  'retry',
  'telemetry',
  'driver-kit',
  'driver',
  'values',
  'primitives',
  'errors',
];
const coreSrc = '^packages/jobs-core/src/';

/** One rule per floor: nothing in it imports a floor above it. */
const floorRules = coreFloors.slice(1).map((floor, index) => ({
  name: `core-floor-${floor}`,
  comment: `jobs-core/src/${floor} imports only the floors below it (${coreFloors.slice(index + 2).join(' › ') || 'none'}).`,
  severity: 'error',
  from: { path: `${coreSrc}${floor}/`, pathNot: nonTest },
  to: { path: `${coreSrc}(${coreFloors.slice(0, index + 1).join('|')})/` },
}));

const restricted =
  'jobs-(?:driver-memory|driver-pg|driver-redis|outbox|scheduler|conformance|backfill|dashboard|consumer|webhooks)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import cycle in any package, type-only imports included (tsPreCompilationDeps): a reader can follow every file one way.',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
    ...floorRules,
    {
      name: 'core-files-live-in-floors',
      comment: 'Every jobs-core source file but the two entry points sits in a floor folder.',
      severity: 'error',
      from: {
        path: coreSrc,
        pathNot: `${coreSrc}((${coreFloors.join('|')})/|index\\.ts$|driver-entry\\.ts$)`,
      },
      to: {},
    },
    {
      name: 'core-entries-are-not-imported',
      comment: 'The entry points (index.ts, driver-entry.ts) re-export floors; no floor imports them back.',
      severity: 'error',
      from: { path: coreSrc },
      to: { path: `${coreSrc}(index|driver-entry)\\.ts$` },
    },
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
