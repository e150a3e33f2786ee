import type { ExecutionObserver } from '@x/jobs-core';
import type { Printer } from '../output/printer.js';
import type { LiveLog } from './live-log.js';

/** The dev loop's step trace: one line per step that ran its fn, and per step replayed from storage. */
export function stepObserver(live: LiveLog, printer: Printer): ExecutionObserver {
  const p = printer.palette;
  const write = (fields: Record<string, unknown>, line: string): void => {
    if (printer.json) {
      printer.stdout.write(
        `${JSON.stringify({ level: 'info', time: new Date().toISOString(), ...fields })}\n`,
      );
    } else {
      live.line(line);
    }
  };
  return {
    stepExecuted(run, step) {
      write(
        { event: 'x-jobs.step.executed', jobId: run.jobId, name: run.name, step },
        `  ${p.cyan('→')} ${p.bold(run.name)} ${p.dim(run.jobId)} step ${step}`,
      );
    },
    stepReplayed(run, step) {
      write(
        { event: 'x-jobs.step.replayed', jobId: run.jobId, name: run.name, step },
        `  ${p.dim('↺')} ${p.bold(run.name)} ${p.dim(run.jobId)} step ${step} ${p.dim('replayed from storage')}`,
      );
    },
  };
}
