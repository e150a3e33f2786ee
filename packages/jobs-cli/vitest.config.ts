import { xProject } from '../../tooling/vitest/project.ts';

export default xProject('@x/jobs-cli', {
  test: {
    // The tests spawn the built binary: build it (and what it references) once, first.
    globalSetup: ['./test-support/global-setup.ts'],
  },
});
