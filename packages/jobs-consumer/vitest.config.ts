import { xProject } from '../../tooling/vitest/project.ts';

export default xProject('@x/jobs-consumer');
