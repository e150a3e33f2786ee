import { type Context, context, ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonLinesLogger } from './logger.js';

const spanContext = {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
};

afterEach(() => context.disable());

describe('jsonLinesLogger', () => {
  it('writes trace_id and span_id while a span is active, and neither outside one', () => {
    let active: Context = ROOT_CONTEXT;
    context.setGlobalContextManager({
      active: () => active,
      with: (ctx, fn, thisArg, ...args) => {
        const before = active;
        active = ctx;
        try {
          return fn.call(thisArg, ...args);
        } finally {
          active = before;
        }
      },
      bind: (_ctx, target) => target,
      enable() {
        return this;
      },
      disable() {
        return this;
      },
    });
    const lines: string[] = [];
    const logger = jsonLinesLogger({ write: (line) => lines.push(line) });
    context.with(trace.setSpanContext(ROOT_CONTEXT, spanContext), () =>
      logger.log('warn', 'jobs.test.inside', { jobId: 'j-1' }),
    );
    logger.log('warn', 'jobs.test.outside');
    const [inside, outside] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(inside).toMatchObject({
      level: 'warn',
      event: 'jobs.test.inside',
      trace_id: spanContext.traceId,
      span_id: spanContext.spanId,
      jobId: 'j-1',
    });
    expect(outside?.event).toBe('jobs.test.outside');
    expect(outside).not.toHaveProperty('trace_id');
    expect(outside).not.toHaveProperty('span_id');
  });
});
