/** A value JSON can hold: what drivers store for payloads, step outputs, events and results. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object: the shape of an event `match` and of structured metadata. */
export type JsonObject = { [key: string]: JsonValue };
