import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSecretIndex, MIN_SECRET_LENGTH } from '../core/secret-index.ts';

describe('createSecretIndex', () => {
  it('finds every known secret in a text, wherever it is, once each', () => {
    const index = createSecretIndex(['sv_abcdef', 'sv_abcdeg', 'token-123456']);
    expect(index.size).toBe(3);
    expect(index.foundIn('sv_abcdef')).toEqual(['sv_abcdef']);
    expect(index.foundIn('{"a":"xsv_abcdegx","b":"sv_abcdef","c":"sv_abcdef"}').sort()).toEqual([
      'sv_abcdef',
      'sv_abcdeg',
    ]);
    expect(index.foundIn('Bearer token-123456')).toEqual(['token-123456']);
    expect(index.foundIn('sv_abcde token-12345 sv_abcdeX')).toEqual([]);
    expect(index.foundIn('')).toEqual([]);
  });

  it(
    'tells apart secrets whose prefixes fall on the same key of its table, and finds secrets at either end ' +
      'of a text',
    () => {
      // Two prefixes of six characters with the same hash modulo 2^32 (31 * 1 = 0x1f: 'Aa' and 'BB' weigh the same).
      const index = createSecretIndex(['AaAaAa-one', 'BBBBBB-two', 'AaBBAa-three']);
      expect(index.foundIn('BBBBBB-two')).toEqual(['BBBBBB-two']);
      expect(index.foundIn('xAaAaAa-onex AaBBAa-thre')).toEqual(['AaAaAa-one']);
      expect(index.foundIn('AaBBAa-three, then BBBBBB-two').sort()).toEqual(['AaBBAa-three', 'BBBBBB-two']);
      expect(index.foundIn('AaAaAa-twoBBBBBB-one')).toEqual([]);
    },
  );

  it('ignores secrets too short to look for, and duplicates', () => {
    const index = createSecretIndex(['short', 'x'.repeat(MIN_SECRET_LENGTH)]);
    index.add('x'.repeat(MIN_SECRET_LENGTH));
    expect(index.size).toBe(1);
    expect(index.foundIn('a short text')).toEqual([]);
  });

  it('finds what a plain `includes` over every secret finds', () => {
    // Few letters, so that texts and secrets share prefixes; one outside Latin-1 and one of two UTF-16 units.
    const alphabet = fc.constantFrom('a', 'b', 'c', '_', 'é', '😀');
    const word = fc.string({ unit: alphabet, minLength: 0, maxLength: 12 });
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        word,
        (secrets, picks, noise) => {
          const text = [noise, ...picks.map((pick) => secrets[pick % Math.max(1, secrets.length)] ?? ''), noise].join(
            '',
          );
          const index = createSecretIndex(secrets);
          const expected = [
            ...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH && text.includes(s))),
          ].sort();
          expect(index.foundIn(text).sort()).toEqual(expected);
        },
      ),
      { numRuns: 1000, seed: 11 },
    );
  });
});
