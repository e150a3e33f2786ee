import { xProject } from '../vitest/project.ts';

export default xProject('@x/doc-tests', { test: { testTimeout: 240_000 } });
