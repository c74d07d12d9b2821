/**
 * Text of every kind a JSON string holds (RULES.md), one sample each, for the string fields probes send: whitespace
 * at either end and inside, markup and quote characters, characters outside the Basic Multilingual Plane, long text,
 * and an escaped lone surrogate (observed only: its echo is never judged). Each goes in an observe probe.
 */
export const TEXT_SAMPLES: readonly { readonly kind: string; readonly text: string }[] = Object.freeze([
  { kind: 'spaces at both ends', text: '  ct-padded  ' },
  { kind: 'other whitespace at the ends and inside', text: '\tct\u00a0name\u2003of\u3000kinds\n' },
  { kind: 'markup and quote characters', text: 'ct-<b>a & b</b> "quoted" \'single\' <>' },
  { kind: 'characters outside the Basic Multilingual Plane', text: 'ct-\u{1F600} \u{1D11E} \u{20000}' },
  { kind: 'long text', text: 'ct-long-'.padEnd(3_000, 'é') },
  { kind: 'an escaped lone surrogate', text: 'ct-\ud800-lone' },
]);
