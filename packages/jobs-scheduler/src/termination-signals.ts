const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Calls `onSignal` on the first SIGTERM or SIGINT. Like the worker's drain, it does not exit the
 * process: once the scheduler (and the worker, and the app's pools) have stopped, nothing keeps it
 * alive. Answers the function that removes the listeners.
 */
export function onTerminationSignals(onSignal: (signal: NodeJS.Signals) => void): () => void {
  const handler = (signal: NodeJS.Signals): void => {
    uninstall();
    onSignal(signal);
  };
  const uninstall = (): void => {
    for (const signal of SIGNALS) process.off(signal, handler);
  };
  for (const signal of SIGNALS) process.once(signal, handler);
  return uninstall;
}
