import type { JobsLogger } from '@x/jobs-core';
import type { Printer } from '../output/printer.js';
import { eventLine } from './event-line.js';
import type { LiveLog } from './live-log.js';

/**
 * The logger the worker, scheduler and relay report through: under `--json`, one JSON object per
 * event on stdout (`{"level","event","time",…fields}`); otherwise one readable line per event
 * (debug left out) above the live status line.
 */
export function runtimeLogger(printer: Printer, live: LiveLog): JobsLogger {
  return {
    log(level, event, fields = {}) {
      if (printer.json) {
        printer.stdout.write(
          `${JSON.stringify({ level, event, time: new Date().toISOString(), ...fields })}\n`,
        );
        return;
      }
      const line = eventLine(level, event, fields, printer.palette);
      if (line !== null) live.line(line);
    },
  };
}
