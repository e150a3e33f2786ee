import type { JobDescriptor } from '../job/job-descriptor.js';
import type { AnyJobHandle } from '../job/job-handle.js';
import { REGISTRABLE, type Registrable } from '../job/registrable.js';

/** The manifest: every registered job's and task's `describe()`, in registration order. */
export interface JobManifest {
  readonly jobs: readonly JobDescriptor[];
  /** Task descriptors as their factory (`@x/jobs-scheduler`'s `task()`) describes them. */
  readonly tasks: readonly unknown[];
}

/** A set of registered handles by durable name: what `defineJobs` answers and the worker runs. */
export interface JobRegistry {
  /** The job or task registered under `name`, or undefined. Jobs and tasks share one namespace. */
  get(name: string): Registrable | undefined;
  /** The registered job handles, in registration order. */
  jobs(): readonly AnyJobHandle[];
  /** The registered task handles, in registration order. */
  tasks(): readonly Registrable[];
  /** Every handle's `describe()`. */
  manifest(): JobManifest;
}

/** A registry that can be added to: the process-wide one and each `defineJobs` call's own. */
export class RegistryTable implements JobRegistry {
  readonly #byName = new Map<string, Registrable>();
  readonly #nameOf = new Map<Registrable, string>();

  /** Records `handle` under `name` (the caller has checked collisions). */
  add(name: string, handle: Registrable): void {
    this.#byName.set(name, handle);
    this.#nameOf.set(handle, name);
  }

  /** The name `handle` was registered under, or undefined. */
  nameOf(handle: Registrable): string | undefined {
    return this.#nameOf.get(handle);
  }

  /** Forgets every registration. */
  clear(): void {
    this.#byName.clear();
    this.#nameOf.clear();
  }

  get(name: string): Registrable | undefined {
    return this.#byName.get(name);
  }

  jobs(): readonly AnyJobHandle[] {
    return this.#ofKind('job') as AnyJobHandle[];
  }

  tasks(): readonly Registrable[] {
    return this.#ofKind('task');
  }

  manifest(): JobManifest {
    return {
      jobs: this.jobs().map((handle) => handle.describe()),
      tasks: this.tasks().map((handle) => handle.describe()),
    };
  }

  #ofKind(kind: 'job' | 'task'): Registrable[] {
    return [...this.#byName.values()].filter((handle) => handle[REGISTRABLE].kind === kind);
  }
}
