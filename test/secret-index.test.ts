import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { createSecretIndex, MIN_SECRET_LENGTH, type SecretIndex, secretForms } from '../secrets/secret-index.ts';
import { secretValue } from '../generators/secretValue.ts';

/** The secrets found in a text, in whatever form, each once, sorted. */
const found = (index: SecretIndex, text: string): string[] =>
  [...new Set(index.foundIn(text).map((f) => f.secret))].sort();

/** The forms of the secrets found in a text, as `form: text`, sorted. */
const forms = (index: SecretIndex, text: string): string[] =>
  index
    .foundIn(text)
    .map((f) => `${f.form}: ${f.text}`)
    .sort();

describe('createSecretIndex', () => {
  it('finds every known secret in a text, wherever it is, once each', () => {
    const index = createSecretIndex(['sv_abcdef', 'sv_abcdeg', 'token-123456']);
    expect(index.size).toBe(3);
    expect(found(index, 'sv_abcdef')).toEqual(['sv_abcdef']);
    expect(found(index, '{"a":"xsv_abcdegx","b":"sv_abcdef","c":"sv_abcdef"}').sort()).toEqual([
      'sv_abcdef',
      'sv_abcdeg',
    ]);
    expect(found(index, 'Bearer token-123456')).toEqual(['token-123456']);
    expect(found(index, 'sv_abcde token-12345 sv_abcdeX')).toEqual([]);
    expect(found(index, '')).toEqual([]);
  });

  it(
    'tells apart secrets whose prefixes fall on the same key of its table, and finds secrets at either end ' +
      'of a text',
    () => {
      // Two prefixes of six characters with the same hash modulo 2^32 (31 * 1 = 0x1f: 'Aa' and 'BB' weigh the same).
      const index = createSecretIndex(['AaAaAa-one', 'BBBBBB-two', 'AaBBAa-three']);
      expect(found(index, 'BBBBBB-two')).toEqual(['BBBBBB-two']);
      expect(found(index, 'xAaAaAa-onex AaBBAa-thre')).toEqual(['AaAaAa-one']);
      expect(found(index, 'AaBBAa-three, then BBBBBB-two').sort()).toEqual(['AaBBAa-three', 'BBBBBB-two']);
      expect(found(index, 'AaAaAa-twoBBBBBB-one')).toEqual([]);
    },
  );

  it(
    'finds a sent secret in part (a run of 12 of its characters, plain or of its base64url) once, a held one ' +
      'only whole',
    () => {
      const sent = 'sv_Abc12@Def34:Ghi56/Jkl78+Mno9 Pqr0';
      const held = 'sv_Zyx98@Wvu76:Tsr54/Qpo32+Nml1 Kji0';
      const index = createSecretIndex([sent]);
      index.add(held, 'held');
      expect(forms(index, `{"passwordHint":"${sent.slice(0, 12)}"}`)).toEqual([`part: ${sent.slice(0, 12)}`]);
      expect(forms(index, `hint ${sent.slice(3, 20)} end`)).toHaveLength(1);
      const encoded = Buffer.from(sent).toString('base64url').slice(8, 20);
      expect(forms(index, `x${encoded}x`)).toEqual([`base64url part: ${encoded}`]);
      expect(forms(index, sent)).toEqual([`plain: ${sent}`]);
      expect(forms(index, sent.slice(0, 11))).toEqual([]);
      expect(index.foundIn(held.slice(0, 12))).toEqual([]);
      expect(index.foundIn(held).map((f) => f.form)).toEqual(['plain']);
    },
  );

  it('ignores secrets too short to look for, and duplicates', () => {
    const index = createSecretIndex(['short', 'x'.repeat(MIN_SECRET_LENGTH)]);
    index.add('x'.repeat(MIN_SECRET_LENGTH));
    expect(index.size).toBe(1);
    expect(found(index, 'a short text')).toEqual([]);
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
          expect(found(index, text).sort()).toEqual(expected);
        },
      ),
      { numRuns: 1000, seed: 11 },
    );
  });

  it('finds each form of a secret and says which form matched', () => {
    // Its base64 has a `+`, so that base64url differs; `~` is left alone by encodeURIComponent, not by form encoding.
    const secret = 'sv_a~~@c:d/e+f g';
    const index = createSecretIndex([secret]);
    const bytes = Buffer.from(secret);
    const cases: [string, string][] = [
      ['plain', secret],
      ['base64', 'c3ZfYX5+QGM6ZC9lK2YgZw'],
      ['base64url', 'c3ZfYX5-QGM6ZC9lK2YgZw'],
      ['percent', 'sv_a~~%40c%3Ad%2Fe%2Bf%20g'],
      ['form', 'sv_a%7E%7E%40c%3Ad%2Fe%2Bf+g'],
      ['json', 'sv_a~~@c:d\\/e+f g'],
      ['hex', bytes.toString('hex')],
      ['hex', bytes.toString('hex').toUpperCase()],
    ];
    for (const [form, text] of cases) expect(forms(index, `x=${text};`), form).toEqual([`${form}: ${text}`]);
    expect(forms(index, `Zm9v ${bytes.toString('base64')}`)).toEqual(['base64: c3ZfYX5+QGM6ZC9lK2YgZw']);
    expect(forms(index, '"sv_a~~@c:d/e+f g\\"')).toEqual([`plain: ${secret}`]);
    expect(index.size).toBe(1);
  });

  it('finds a username and password as HTTP Basic carries them, and each of them alone', () => {
    const index = createSecretIndex([{ username: 'sv_user@x', password: 'sv_pass:y' }, 'sv_user@x', 'sv_pass:y']);
    const basic = Buffer.from('sv_user@x:sv_pass:y').toString('base64');
    expect(forms(index, `authorization: Basic ${basic}`)).toContain(`basic: ${basic.replace(/=+$/, '')}`);
    expect(index.foundIn(basic).find((f) => f.form === 'basic')?.secret).toBe('sv_user@x:sv_pass:y');
    expect(found(index, 'postgres://sv_user%40x:sv_pass%3Ay@db')).toEqual(['sv_pass:y', 'sv_user@x']);
    expect(index.size).toBe(3);
  });

  it('every generated secret differs from each of its encoded forms, each found as itself', () => {
    for (const secret of fc.sample(secretValue(), { numRuns: 50, seed: 3 })) {
      // JSON as JavaScript writes it leaves these secrets as they are: the same entry as the plain value.
      const encoded = secretForms(secret).filter(([form, text]) => form !== 'plain' && text !== secret);
      for (const [form, text] of encoded) {
        // base64url is base64 when the latter has no `+` or `/`: one entry, found as base64.
        if (form === 'base64url' && !/[+/]/.test(Buffer.from(secret).toString('base64'))) continue;
        expect(text, form).not.toContain(secret);
        expect(createSecretIndex([secret]).foundIn(`<${text}>`), form).toContainEqual({ secret, form, text });
      }
    }
  });

  it('scans in time linear in the text: the time per KB at 1 MB is within a generous factor of that at 1 KB', () => {
    // Figures on a shared machine are noisy: only a ratio far from linear fails, never a wall-clock threshold.
    const secrets = fc.sample(secretValue(), { numRuns: 500, seed: 5 });
    const index = createSecretIndex(secrets);
    // Text full of the forms' first characters and of near misses, so that most positions are looked up.
    const unit = secrets
      .slice(0, 8)
      .map((s) => `${s.slice(0, -2)}|${Buffer.from(s).toString('hex').slice(0, 10)}|c3Zf`)
      .join(',');
    const textOf = (kb: number): string => unit.repeat(Math.ceil((kb * 1024) / unit.length)).slice(0, kb * 1024);
    /** The best time per KB over a few rounds, each scanning about 1 MB in texts of `kb` KB. */
    const perKb = (kb: number): number => {
      const text = textOf(kb);
      const times = Math.max(1, Math.round(1024 / kb));
      let best = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 5; round++) {
        const start = performance.now();
        for (let i = 0; i < times; i++) index.foundIn(text);
        best = Math.min(best, (performance.now() - start) / (times * kb));
      }
      return best;
    };
    perKb(64); // warm up
    const figures = [1, 64, 1024].map((kb) => ({ kb, perKb: perKb(kb) }));
    console.info(figures.map((f) => `${f.kb} KB: ${(f.perKb * 1000).toFixed(2)} µs/KB`).join(', '));
    const [small, , large] = figures;
    expect(large!.perKb / small!.perKb).toBeLessThan(10);
    expect(figures[1]!.perKb / small!.perKb).toBeLessThan(10);
  });
});
