import type { EnqueueResult } from '@x/jobs-core/driver';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { backfill } from './backfill.js';
import type { BackfillHandleArgs } from './backfill-definition.js';
import type { KeysetQuery } from './keyset-source.js';

declare const orders: KeysetQuery<{ id: string; total: number }>;

describe('backfill() types', () => {
  it('an unscoped pass enqueues with {} or { force }; handle rows are typed from the source', () => {
    const sweep = backfill({
      name: 'types-unscoped',
      tenant: 'none',
      source: { query: () => orders, key: 'id' },
      handle: ({ rows }) => {
        expectTypeOf(rows).toEqualTypeOf<readonly { id: string; total: number }[]>();
      },
    });
    expectTypeOf(sweep.enqueue({})).resolves.toExtend<EnqueueResult>();
    expectTypeOf(sweep.enqueue).toBeCallableWith({ force: true });
  });

  it('a scoped pass needs its input; tenant and scope see the parsed input', () => {
    const perOrg = backfill({
      name: 'types-scoped',
      input: z.object({ orgId: z.string() }),
      scope: ({ orgId }) => orgId,
      tenant: ({ orgId }) => orgId,
      pages: async ({ input }) => {
        expectTypeOf(input).toEqualTypeOf<{ orgId: string }>();
        return { rows: [input.orgId], next: null };
      },
      handle: () => undefined,
    });
    expectTypeOf(perOrg.enqueue).toBeCallableWith({ input: { orgId: 'acme' } });
    // @ts-expect-error: a scoped pass without its input does not compile
    void perOrg.enqueue({});
  });

  it('handle is given rows and a signal, never step', () => {
    expectTypeOf<BackfillHandleArgs<number, undefined>>().toHaveProperty('signal');
    expectTypeOf<BackfillHandleArgs<number, undefined>>().not.toHaveProperty('step');
  });
});
