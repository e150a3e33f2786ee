/**
 * The Redis child of the clock-jump test (`node --import <clock-shift> clock-jump-child.ts
 * <prefix>`): opens the driver on its own prefix, then runs the shared scenario.
 */
import { runClockJumpChild } from '../../jobs-core/test/clock-jump/clock-jump-child.js';
import { redisJobDriver } from '../src/index.js';
import { adminClient, REDIS_URL } from './redis-fixture.js';

const prefix = process.argv[2] as string;
const admin = adminClient();
await runClockJumpChild({
  driver: redisJobDriver({ url: REDIS_URL, prefix }),
  readBackendClock: async () => {
    const [seconds, micros] = await admin.time();
    return Number(seconds) * 1000 + Number(micros) / 1000;
  },
  close: async () => {
    admin.disconnect();
  },
});
