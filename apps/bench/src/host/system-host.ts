import { isSystemName, loadSystem } from '../systems/catalog.js';
import { workloads } from '../workloads/catalog.js';
import type { FromHost, ToHost } from './host-protocol.js';

/**
 * Entry of a system host: `system-host.ts <system>`. One process per system keeps every library's
 * module state, pools and garbage apart from the others', and lets the orchestrator interleave
 * runs of different systems. Answers one `measure` at a time.
 */
async function main(): Promise<void> {
  const name = process.argv[2] ?? '';
  if (!isSystemName(name)) throw new Error(`unknown system ${name}`);
  const send = (message: FromHost, then: () => void = () => {}): void => {
    process.send?.(message, then);
  };
  const system = await loadSystem(name);
  await system.setup();

  let queue: Promise<void> = Promise.resolve();
  process.on('message', (message: ToHost) => {
    queue = queue.then(async () => {
      if (message.kind === 'close') {
        await system.close();
        send({ kind: 'closed' }, () => process.exit(0));
        return;
      }
      const workload = workloads(message.settings).get(message.workload);
      if (!workload) {
        send({ kind: 'failed', error: `${message.workload}: not implemented` });
        return;
      }
      try {
        const values = await workload.run({ name, system, settings: message.settings });
        send({ kind: 'measured', values });
      } catch (error) {
        send({ kind: 'failed', error: String((error as Error)?.message ?? error) });
      }
    });
  });
  send({ kind: 'ready', versions: system.versions });
}

main().catch((error: unknown) => {
  process.send?.(
    { kind: 'failed', error: String((error as Error)?.message ?? error) } satisfies FromHost,
    () => process.exit(1),
  );
});
