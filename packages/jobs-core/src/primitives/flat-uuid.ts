import { randomUUID } from 'node:crypto';

/**
 * A fresh random (version 4) UUID, as a flat string. Node's `randomUUID()` answers a rope of about
 * thirty concatenated pieces — ≈ 480 bytes of heap where the flat string takes ≈ 60 — which V8
 * flattens only once something reads its characters. Job and run ids live as long as their rows
 * (a memory driver's maps, a worker's buffers, every batch that carries them), so each is
 * flattened here, once, where it is made.
 */
export function flatUuid(): string {
  const id = randomUUID();
  // Reading one character flattens the rope in place (V8 replaces its pieces with one string).
  id.charCodeAt(0);
  return id;
}
