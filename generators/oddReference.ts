import * as fc from 'fast-check';
import { lazy } from './lazy.ts';

const OBJECT_ID = /^[0-9a-f]{24}$/;
const SAMPLES = Object.freeze([
  'dash-1',
  'tile-1',
  'webhook-1',
  '',
  ' ',
  'ダッシュボード',
  'tableau-de-bord-é',
  '65a1b2c3d4e5f60718293a4',
  '65a1b2c3d4e5f60718293a4b0',
  'zzzzzzzzzzzzzzzzzzzzzzzz',
  '65A1B2C3D4E5F60718293A4G',
  '../../etc',
  'conformance-'.padEnd(1_024, 'r'),
]);
// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const ODD_REFERENCE = fc
  .oneof(
    { weight: 3, arbitrary: fc.constantFrom(...SAMPLES) },
    { weight: 1, arbitrary: lazy(() => fc.string({ unit: 'grapheme', maxLength: 30 })) },
  )
  .filter((id) => !OBJECT_ID.test(id));

/**
 * Invented reference ids (dashboard, tile, webhook) that are strings but not 24 lower-case hex digits: short names,
 * empty, non-ASCII, near misses in length, 1024 characters long.
 */
export function oddReference(): fc.Arbitrary<string> {
  return ODD_REFERENCE;
}
