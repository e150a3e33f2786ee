import { xProject } from '../../tooling/vitest/project.ts';

// PGlite starts in seconds, and far longer on a loaded 2-core machine; the property itself is
// bounded to ~30 s there.
export default xProject('@x/parity', { test: { testTimeout: 180_000, hookTimeout: 180_000 } });
