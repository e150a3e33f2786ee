import { xProject } from '../vitest/project.ts';

export default xProject('@x/release-check');
