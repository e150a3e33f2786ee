import type { JobState, StepStatus } from '@x/jobs-core';
import type { Palette } from '../output/colour.js';

/** A job state coloured by what it asks of an operator: red dead, yellow waiting, green done. */
export function colourState(state: JobState, p: Palette): string {
  switch (state) {
    case 'done':
      return p.green(state);
    case 'dead':
      return p.red(state);
    case 'running':
      return p.cyan(state);
    case 'cancelled':
      return p.dim(state);
    case 'delayed':
    case 'suspended':
      return p.yellow(state);
    case 'ready':
      return p.blue(state);
  }
}

/** A step status coloured the same way. */
export function colourStepStatus(status: StepStatus, p: Palette): string {
  switch (status) {
    case 'completed':
      return p.green(status);
    case 'failed':
      return p.red(status);
    case 'started':
      return p.yellow(status);
  }
}
