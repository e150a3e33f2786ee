import { xProject } from '../../tooling/vitest/project.ts';

export default xProject('@x/jobs-dashboard', {
  // The browser test starts Chromium and a PGlite; give its hooks room on a loaded 2-core machine.
  test: { hookTimeout: 90_000, testTimeout: 60_000 },
});
