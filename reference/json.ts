/** A JSON value as parsed from a request body or sent in a response. */
export type Json = null | boolean | number | string | Json[] | JsonObject;

/** A JSON object; a member set to undefined is absent (as JSON.stringify leaves it out). */
export interface JsonObject {
  [key: string]: Json | undefined;
}

/** Tells whether a value is a JSON object: not an array, not null. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Returns a deep copy of a JSON value, so that a caller may change it freely. */
export function copyJson<T extends Json>(value: T): T {
  return structuredClone(value);
}
