/** What {@link readLimitedBody} read: the exact bytes, or the fact that there were too many. */
export type LimitedBody = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false };

/**
 * Reads a request body up to `maxBytes`, exactly as sent. A `content-length` over the limit is
 * refused before a byte is read; a body that grows past it mid-stream stops the read there and
 * cancels the stream, so the rest is never buffered. Nothing is decoded or parsed here.
 */
export async function readLimitedBody(request: Request, maxBytes: number): Promise<LimitedBody> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return { ok: false };
  }
  if (request.body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { ok: false };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}
