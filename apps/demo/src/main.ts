import path from 'node:path';
import process from 'node:process';
import { runDemo } from './run-demo.js';

// `pnpm demo`: the onboarding flow on embedded PostgreSQL in ./.x-jobs (X_DEMO_DATA_DIR to move it).
const controller = new AbortController();
let signals = 0;
const onSignal = (): void => {
  signals += 1;
  if (signals > 1) process.exit(130); // a second Ctrl-C: out at once, not clean
  controller.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const code = await runDemo({
  dataDir: path.resolve(process.env.X_DEMO_DATA_DIR ?? '.x-jobs'),
  env: process.env,
  out: process.stdout,
  signal: controller.signal,
});
process.stdout.write('', () => process.exit(code));
