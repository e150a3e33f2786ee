const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Runs `stop` on SIGTERM or SIGINT, once. When `stop` settles and nothing else listens for that
 * signal, it is raised again so the process ends the way it would have without us. Answers the
 * function that removes the listeners.
 */
export function onTerminationSignals(stop: () => Promise<void>): () => void {
  const handler = (signal: NodeJS.Signals): void => {
    uninstall();
    void stop().finally(() => {
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  };
  const uninstall = (): void => {
    for (const signal of SIGNALS) process.off(signal, handler);
  };
  for (const signal of SIGNALS) process.once(signal, handler);
  return uninstall;
}
