import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe } from 'vitest';
import { clockJumpCases } from '../../jobs-core/test/clock-jump/clock-jump-suite.js';
import { adminClient, deletePrefix, requireRedis, uniquePrefix } from '../test/redis-fixture.js';

const prefix = uniquePrefix('clock');
const admin = adminClient();

beforeAll(requireRedis);

afterAll(async () => {
  await deletePrefix(prefix, admin);
  admin.disconnect();
});

describe('Redis: due times are on the server clock, whatever the worker host clock does', () => {
  clockJumpCases(() => ({
    script: fileURLToPath(new URL('../test/clock-jump-child.ts', import.meta.url)),
    args: [prefix],
  }));
});
