import { xProject } from '../../tooling/vitest/project.ts';

// The demo test runs the demo as `pnpm demo` does (tsx on the sources): PGlite start-up and the
// flow itself take tens of seconds on a loaded machine.
export default xProject('@x/demo', { test: { testTimeout: 180_000 } });
