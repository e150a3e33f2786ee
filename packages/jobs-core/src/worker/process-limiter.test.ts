import { describe, expect, it } from 'vitest';
import type { Clock } from '../primitives/clock.js';
import { ProcessLimiter } from './process-limiter.js';

/** A clock stopped at `ms`. */
const at = (ms: number): Clock => ({ now: () => ms });

describe('ProcessLimiter', () => {
  it('caps jobs per tenant, releasing a slot when a job settles', () => {
    const limiter = new ProcessLimiter({ perTenant: 2 });
    const a = limiter.admit('q', 'acme', at(0));
    const b = limiter.admit('q', 'acme', at(0));
    expect(a.admitted && b.admitted).toBe(true);
    expect(limiter.admit('q', 'acme', at(0))).toMatchObject({ admitted: false, cap: 'perTenant' });
    expect(limiter.admit('q', 'globex', at(0)).admitted).toBe(true);
    if (a.admitted) a.release();
    expect(limiter.admit('q', 'acme', at(0)).admitted).toBe(true);
  });

  it('caps per queue (one number or per queue) and globally', () => {
    const perQueue = new ProcessLimiter({ perQueue: { emails: 1 } });
    expect(perQueue.admit('emails', null, at(0)).admitted).toBe(true);
    expect(perQueue.admit('emails', null, at(0))).toMatchObject({ admitted: false, cap: 'perQueue' });
    expect(perQueue.admit('other', null, at(0)).admitted).toBe(true);

    const global = new ProcessLimiter({ global: 1 });
    expect(global.admit('a', null, at(0)).admitted).toBe(true);
    expect(global.admit('b', null, at(0))).toMatchObject({ admitted: false, cap: 'global' });
  });

  it('limits starts per tenant in a sliding window and says when the next one fits', () => {
    const limiter = new ProcessLimiter({ ratePerTenant: { limit: 2, per: '1s' } });
    const first = limiter.admit('q', 'acme', at(1_000));
    const second = limiter.admit('q', 'acme', at(1_400));
    if (first.admitted) first.release();
    if (second.admitted) second.release();
    expect(limiter.admit('q', 'acme', at(1_500))).toEqual({
      admitted: false,
      cap: 'ratePerTenant',
      retryInMs: 500,
    });
    expect(limiter.admit('q', 'acme', at(2_001)).admitted).toBe(true);
  });

  it('never counts tenant caps for jobs of no tenant', () => {
    const limiter = new ProcessLimiter({ perTenant: 1, ratePerTenant: { limit: 1, per: '1h' } });
    expect(limiter.admit('q', null, at(0)).admitted).toBe(true);
    expect(limiter.admit('q', null, at(0)).admitted).toBe(true);
  });

  it.each([
    { perTenant: 0 },
    { global: 1.5 },
    { perQueue: { q: -1 } },
    { ratePerTenant: { limit: 0, per: '1s' } },
  ])('refuses %j with X_WORKER_OPTIONS_INVALID', (config) => {
    expect(() => new ProcessLimiter(config as never)).toThrow(
      expect.objectContaining({ code: 'X_WORKER_OPTIONS_INVALID' }),
    );
  });

  it('refuses a bad ratePerTenant window with X_DURATION_INVALID', () => {
    expect(() => new ProcessLimiter({ ratePerTenant: { limit: 1, per: '3x' as never } })).toThrow(
      expect.objectContaining({ code: 'X_DURATION_INVALID' }),
    );
  });
});

describe('ProcessLimiter memory', () => {
  it('forgets a tenant once its last job settles', () => {
    const limiter = new ProcessLimiter({ perTenant: 1 });
    for (let i = 0; i < 5_000; i += 1) {
      const admission = limiter.admit('q', `tenant-${i}`, at(0));
      if (admission.admitted) admission.release();
    }
    expect(limiter.trackedTenants()).toBe(0);
  });

  it('reads the clock only to enforce a rate cap', () => {
    let reads = 0;
    const counting: Clock = {
      now: () => {
        reads += 1;
        return 0;
      },
    };
    for (const config of [{}, { perTenant: 5, global: 10, perQueue: 10 }]) {
      new ProcessLimiter(config).admit('q', 'acme', counting);
    }
    expect(reads).toBe(0);
    new ProcessLimiter({ ratePerTenant: { limit: 2, per: '1s' } }).admit('q', 'acme', counting);
    expect(reads).toBe(1);
  });
});
