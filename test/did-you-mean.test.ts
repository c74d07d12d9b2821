import { describe, expect, it } from 'vitest';
import { closest, didYouMean, editDistance } from '../core/did-you-mean.ts';
import { RULE_IDS } from '../rules/index.ts';

describe('did you mean', () => {
  it('measures the edit distance', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('--max-rsp', '--max-rps')).toBe(2);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('suggests the nearest candidate within a third of the word, or the one that contains it', () => {
    expect(closest('auth.requird', RULE_IDS)).toBe('auth.required');
    expect(closest('AUTH.REQUIRED', RULE_IDS)).toBe('auth.required');
    expect(closest('request-id-v4', RULE_IDS)).toBe('envelope.request-id-v4');
    expect(closest('envelope', RULE_IDS)).toBeUndefined();
    expect(closest('zzzzzz', RULE_IDS)).toBeUndefined();
    expect(closest('mrege', ['run', 'merge', 'diff'])).toBe('merge');
    expect(didYouMean('--verbos', ['--verbose', '--seed'])).toBe(' (did you mean --verbose?)');
    expect(didYouMean('--frobnicate', ['--verbose', '--seed'])).toBe('');
  });
});
