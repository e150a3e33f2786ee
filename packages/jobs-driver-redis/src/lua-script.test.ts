import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, requireRedis } from '../test/redis-fixture.js';
import { REDIS_SCRIPTS } from './lua/scripts.js';
import { defineLuaScript, luaFragment } from './lua-script.js';

const scripts = Object.entries(REDIS_SCRIPTS);

describe('the Lua scripts', () => {
  const admin = adminClient();
  beforeAll(requireRedis);
  afterAll(() => admin.disconnect());

  it.each(scripts)('%s opens with its contract block and binds its KEYS in order', (name, script) => {
    const lines = script.lua.split('\n');
    expect(lines[0]).toBe(`-- ${name}.lua`);
    expect(script.name).toBe(name);
    expect(script.lua).toMatch(/^-- Returns:/m);
    script.keys.forEach((key, i) => {
      expect(script.lua).toContain(`local K_${key.toUpperCase()} = KEYS[${i + 1}]`);
      expect(script.lua).toMatch(new RegExp(`^-- KEYS\\[${i + 1}\\] ${key}\\b`, 'm'));
    });
    expect(script.lua).not.toMatch(new RegExp(`KEYS\\[${script.keys.length + 1}\\]`));
  });

  it.each(scripts)('%s is called by the SHA-1 of its text and compiles on the server', async (_, script) => {
    expect(script.sha).toBe(createHash('sha1').update(script.lua).digest('hex'));
    expect(await admin.script('LOAD', script.lua)).toBe(script.sha);
  });

  it('shares pieces by composition: a fragment is included once, after what it requires', () => {
    const base = luaFragment({ name: 'base', lua: 'local function a() return 1 end' });
    const derived = luaFragment({
      name: 'derived',
      requires: [base],
      lua: 'local function b() return a() end',
    });
    const script = defineLuaScript({
      name: 'demo',
      contract: 'Demo.\nReturns: 1.',
      keys: [],
      includes: [derived, base],
      body: 'return b()',
    });
    expect(script.lua.match(/local function a\(\)/g)).toHaveLength(1);
    expect(script.lua.indexOf('-- [base]')).toBeLessThan(script.lua.indexOf('-- [derived]'));
  });

  it('refuses, at definition, a fragment whose key the script does not declare', () => {
    const needsDedupe = luaFragment({ name: 'needs-dedupe', keys: ['dedupe'], lua: 'local x = K_DEDUPE' });
    expect(() =>
      defineLuaScript({
        name: 'broken',
        contract: 'x',
        keys: ['base'],
        includes: [needsDedupe],
        body: 'return 1',
      }),
    ).toThrow(/needs key dedupe/);
  });
});
