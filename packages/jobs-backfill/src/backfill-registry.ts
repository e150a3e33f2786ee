import type { AnyJobHandle, JobContext } from '@x/jobs-core';

/** What `registeredBackfills()` lists for one declaration: data only. */
export interface BackfillDeclaration {
  readonly kind: 'backfill';
  readonly name: string;
  /** `sha256:<hex>` of what the sweep does (not of `batch` or `rate`). */
  readonly checksum: string;
  /** Migration ids it needs applied. */
  readonly requires: readonly string[];
  /** Where it may run; null for every environment. */
  readonly environments: readonly string[] | null;
  /** True when it declares `count`. */
  readonly counts: boolean;
  /** True when it declares `input` + `scope` (one pass per scope, ledger names `<name>:<scope>`). */
  readonly scoped: boolean;
  readonly batch: number;
  readonly rate: number;
  readonly queue: string;
}

/** A declared backfill as the CLI reaches it: its data, its job handle and its count. */
export interface RegisteredBackfill {
  readonly declaration: BackfillDeclaration;
  readonly handle: AnyJobHandle;
  /** The ledger name of a pass over `input`: `<name>`, or `<name>:<scope(input)>`. */
  ledgerName(input: unknown): string;
  /** The declared `count` over `input` with the app's context, or undefined when none is declared. */
  count?(input: unknown, ctx: JobContext, signal: AbortSignal): Promise<number>;
}

interface RegistrySlot {
  readonly byName: Map<string, RegisteredBackfill>;
  readonly byHandle: WeakMap<object, RegisteredBackfill>;
}

// One registry per process, even when two copies of this package are loaded (the app's and the
// CLI's): a copy that kept its own map would report the other's sweeps as undeclared.
const SLOT = Symbol.for('@x/jobs-backfill.registry');

function slot(): RegistrySlot {
  const global = globalThis as { [SLOT]?: RegistrySlot };
  global[SLOT] ??= { byName: new Map(), byHandle: new WeakMap() };
  return global[SLOT];
}

/** Records a declaration (called by `backfill()`, which already refused a duplicate name). */
export function recordBackfill(entry: RegisteredBackfill): void {
  slot().byName.set(entry.declaration.name, entry);
  slot().byHandle.set(entry.handle, entry);
}

/**
 * Every backfill declared in this process, in declaration order: importing the module that
 * declares it is enough (nothing to register twice).
 */
export function registeredBackfills(): readonly BackfillDeclaration[] {
  return [...slot().byName.values()].map((entry) => entry.declaration);
}

/** The declared backfill named `name`, or undefined. */
export function findBackfill(name: string): RegisteredBackfill | undefined {
  return slot().byName.get(name);
}

/** True for a handle `backfill()` returned; a plain `job()` (or a look-alike) is false. */
export function isBackfill(value: unknown): value is AnyJobHandle {
  return typeof value === 'object' && value !== null && slot().byHandle.has(value);
}
