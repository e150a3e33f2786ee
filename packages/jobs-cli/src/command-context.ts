import type { CliIo } from './cli-io.js';

/** What every command's action receives besides its parsed arguments. */
export interface CommandContext {
  readonly io: CliIo;
}
