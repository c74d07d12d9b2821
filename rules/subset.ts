import type { Violation } from '../rule-model/rule.ts';
import { asObject } from './body.ts';
import { isUuid } from '../core/uuid.ts';
import { jsonText, sameJsonNumber } from '../core/json-text.ts';

/**
 * Every place where `actual` does not carry a value of `expected`: objects may have more keys, arrays
 * must have the same elements in any order, uuids compare case-insensitively.
 */
export function subsetViolations(expected: unknown, actual: unknown, path: string): Violation[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ path, expected: `an array like ${jsonText(expected)}`, actual }];
    if (actual.length !== expected.length)
      return [{ path, expected: `${expected.length} elements: ${jsonText(expected)}`, actual }];
    const unused = [...actual];
    for (let index = 0; index < expected.length; index++) {
      const item: unknown = expected[index];
      const match = unused.findIndex((candidate) => subsetViolations(item, candidate, '').length === 0);
      if (match === -1) return [{ path: `${path}/${index}`, expected: `an element ${jsonText(item)}`, actual }];
      unused.splice(match, 1);
    }
    return [];
  }
  const expectedObject = asObject(expected);
  if (expectedObject) {
    const actualObject = asObject(actual);
    if (!actualObject) return [{ path, expected: 'an object', actual }];
    const violations: Violation[] = [];
    for (const key in expectedObject) {
      const value = expectedObject[key];
      if (value !== undefined) violations.push(...subsetViolations(value, actualObject[key], `${path}/${key}`));
    }
    return violations;
  }
  // An escaped lone surrogate's meaning is left open (RFC 8259 §8.2): observed only, its echo never judged.
  if (typeof expected === 'string' && typeof actual === 'string' && hasLoneSurrogate(expected)) return [];
  if (typeof expected === 'string' && typeof actual === 'string' && isUuid(expected)) {
    return expected.toLowerCase() === actual.toLowerCase() ? [] : [{ path, expected: jsonText(expected), actual }];
  }
  if (isJsonNumber(expected) && isJsonNumber(actual))
    return sameJsonNumber(expected, actual) ? [] : [{ path, expected: jsonText(expected), actual }];
  return Object.is(expected, actual) ? [] : [{ path, expected: jsonText(expected), actual }];
}

/** A deep copy of a JSON value without the named keys, at any depth. */
export function omitKeys(value: unknown, keys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => omitKeys(item, keys));
  const object = asObject(value);
  if (!object) return value;
  const kept: [string, unknown][] = [];
  for (const key in object) if (!keys.has(key)) kept.push([key, omitKeys(object[key], keys)]);
  return Object.fromEntries(kept);
}

/** A surrogate code unit without its pair. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

const isJsonNumber = (value: unknown): value is number | bigint =>
  typeof value === 'number' || typeof value === 'bigint';
