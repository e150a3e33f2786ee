import { AsyncLocalStorage } from 'node:async_hooks';
import { consumerError } from './errors.js';

/** The consumer body running on this async path: its consumer's name and its key. */
interface RunningBody {
  readonly consumer: string;
  readonly key: string;
}

/**
 * Its own storage rather than core's `currentJobRun()`, so the guard holds even in an app that
 * called `disableCurrentJobRun()`; only consumer bodies enter it.
 */
const running = new AsyncLocalStorage<RunningBody>();

/** Runs a consumer body so that {@link refuseSelfEnqueue} can recognise enqueues made from inside it. */
export function runAsBody<T>(consumer: string, key: string, body: () => Promise<T>): Promise<T> {
  return running.run({ consumer, key }, body);
}

/**
 * Throws `X_CONSUMER_SELF_ENQUEUE` when the code enqueueing `key` of `consumer` is that key's own
 * body: the enqueue would dedupe onto the running row and arm nothing, so a body that means to
 * "continue later" would silently stop instead.
 */
export function refuseSelfEnqueue(consumer: string, key: string): void {
  const body = running.getStore();
  if (body !== undefined && body.consumer === consumer && body.key === key) {
    throw consumerError(
      'X_CONSUMER_SELF_ENQUEUE',
      `consumer '${consumer}': a body enqueued its own key; it keeps running by itself, and the supervisor re-arms it once it settles.`,
      { consumer },
    );
  }
}
