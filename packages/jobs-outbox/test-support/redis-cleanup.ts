import { connect } from 'node:net';

/** The Redis the tests use. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Deletes every key of a driver prefix (`{prefix}:*`) with one server-side script, over a bare
 * socket: this package has no Redis client of its own (ioredis is the driver's dependency).
 */
export async function deleteRedisPrefix(prefix: string, url = REDIS_URL): Promise<void> {
  const { hostname, port } = new URL(url);
  const script =
    "local n = 0 local cursor = '0' repeat local r = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000) " +
    "cursor = r[1] for _, key in ipairs(r[2]) do n = n + redis.call('DEL', key) end until cursor == '0' return n";
  const args = ['EVAL', script, '0', `{${prefix}}:*`];
  const command = `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) }, () => socket.write(command));
    socket.once('data', (reply) => {
      socket.end();
      const text = reply.toString();
      if (text.startsWith('-')) reject(new Error(`Redis refused the cleanup: ${text.trim()}`));
      else resolve();
    });
    socket.once('error', reject);
  });
}
