import type { JobRunContext } from '../job/job-context.js';
import type { StepApi } from '../job/step-api.js';
import type { AttemptScope } from './attempt-scope.js';
import { stepApiOf } from './attempt-steps.js';
import { ProgressWriter } from './progress-writer.js';

/**
 * What a body receives (the `RunArgs` of `job/run-args.ts`). `step` and `progress` are prototype
 * getters, built on first read: a body that never touches them (most short jobs) pays for neither.
 */
export class BodyArgs {
  readonly input: unknown;
  readonly ctx: JobRunContext;
  readonly finalAttempt: boolean;
  readonly #scope: AttemptScope;
  #step: StepApi<boolean> | undefined;

  constructor(scope: AttemptScope, ctx: JobRunContext, finalAttempt: boolean) {
    this.#scope = scope;
    this.input = scope.input;
    this.ctx = ctx;
    this.finalAttempt = finalAttempt;
  }

  get step(): StepApi<boolean> {
    this.#step ??= stepApiOf(this.#scope);
    return this.#step;
  }

  get progress(): (current: number, total?: number) => void {
    const scope = this.#scope;
    scope.progress ??= new ProgressWriter(scope.driver, scope.job, scope.settings.logger);
    return scope.progress.report;
  }
}
