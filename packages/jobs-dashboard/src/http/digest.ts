import type { webcrypto } from 'node:crypto';

/**
 * HMAC-SHA256 through Web Crypto (Node 20+, Bun, Deno, workers alike), for token comparison and
 * CSRF tokens; no `node:crypto`, so the handler runs wherever `Request` does.
 */
export class Digest {
  readonly #key: Promise<webcrypto.CryptoKey>;

  constructor(secret: string) {
    this.#key = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
  }

  /** The HMAC of `text` as base64url. */
  async sign(text: string): Promise<string> {
    const mac = await crypto.subtle.sign('HMAC', await this.#key, new TextEncoder().encode(text));
    return base64url(new Uint8Array(mac));
  }

  /** True when `a` equals `b`, compared through their HMACs so the time taken says nothing about either. */
  async equal(a: string, b: string): Promise<boolean> {
    const [x, y] = await Promise.all([this.sign(`eq:${a}`), this.sign(`eq:${b}`)]);
    let diff = x.length ^ y.length;
    for (let i = 0; i < Math.min(x.length, y.length); i += 1) diff |= x.charCodeAt(i) ^ y.charCodeAt(i);
    return diff === 0;
  }
}

/** 32 random bytes as base64url: a per-handler secret, or a token the CLI prints. */
export function randomSecret(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
