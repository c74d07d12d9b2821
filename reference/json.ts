import { randomBytes } from 'node:crypto';

/** A JSON value as parsed from a request body or sent in a response; an integer past 2^53 is a bigint, as sent. */
export type Json = null | boolean | number | bigint | string | Json[] | JsonObject;

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

/** Tells whether a value is a JSON number: a finite number, or an integer too large for one (a bigint). */
export function isJsonNumber(value: unknown): value is number | bigint {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value));
}

/** Marks an integer written as a string while parsing or writing; random, so that no text a client sends holds it. */
const MARK_ID = `int${randomBytes(6).toString('hex')}:`;
const MARK = `\u0001${MARK_ID}`;
/** The mark as JSON text writes it. */
const MARK_TEXT = `\\u0001${MARK_ID}`;

/**
 * Parses JSON text keeping every integer exactly: one that a number cannot hold (past 2^53) becomes a bigint. Throws
 * as JSON.parse does on text that is not JSON.
 */
export function parseJson(text: string): Json {
  if (!/\d{16}/.test(text)) return JSON.parse(text) as Json;
  let marked = '';
  let from = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '-' || (char >= '0' && char <= '9')) {
      const token = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at))?.[0] ?? char;
      if (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))) {
        marked += `${text.slice(from, at)}"${MARK_TEXT}${token}"`;
        from = at + token.length;
      }
      at += token.length - 1;
    }
  }
  marked += text.slice(from);
  return JSON.parse(marked, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(MARK) ? BigInt(value.slice(MARK.length)) : value,
  ) as Json;
}

/** Writes a JSON value as text, a bigint as its digits. */
export function stringifyJson(value: Json): string {
  const text = JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? `${MARK}${item.toString()}` : item,
  );
  return text.includes(MARK_TEXT) ? text.replaceAll(new RegExp(`"\\\\u0001${MARK_ID}(-?\\d+)"`, 'g'), '$1') : text;
}
