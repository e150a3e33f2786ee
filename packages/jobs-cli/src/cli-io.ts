import process from 'node:process';

/** The part of a writable stream `x-jobs` uses. */
export interface CliStream {
  write(chunk: string): boolean;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** A signal that asks a long-running command to stop. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * Everything `x-jobs` reads from or writes to its process, injectable so the program can run in a
 * test without spawning.
 */
export interface CliIo {
  /** The user's arguments (without `node` and the script path). */
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory relative paths (`--module`, `--data-dir`) resolve against. */
  readonly cwd: string;
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  /** Subscribes to SIGINT / SIGTERM; answers the unsubscribe. */
  onStopSignal(listener: (signal: StopSignal) => void): () => void;
}

/** The {@link CliIo} of the running process. */
export function processIo(argv: readonly string[] = process.argv.slice(2)): CliIo {
  return {
    argv,
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    onStopSignal(listener) {
      const onInt = (): void => listener('SIGINT');
      const onTerm = (): void => listener('SIGTERM');
      process.on('SIGINT', onInt);
      process.on('SIGTERM', onTerm);
      return () => {
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
      };
    },
  };
}
