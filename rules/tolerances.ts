import type { Tolerance } from '../spec/traceability.ts';

/**
 * The tolerances of RULES.md ("The harness judges only what the documents say"), each by the words that open it there.
 */
export const TOLERANCES: readonly Tolerance[] = Object.freeze(
  [
    {
      id: 'not-shown',
      quote: 'The harness judges only what the documents say. Where they say "not shown", it must not guess',
    },
    { id: 'extra-properties', quote: 'Responses may carry fields the documents do not list.' },
    { id: 'uuid-case', quote: 'uuids compare case-insensitively' },
    { id: 'error-format', quote: 'Error responses are not shown' },
    { id: 'rejection-any-4xx', quote: 'A *rejection* is any 4xx.' },
    { id: 'conditional-fields', quote: 'A response field that exists only under a condition may be absent' },
    {
      id: 'sample-values',
      quote: "Where the documents show only samples, positive probes use only values of the samples' kind",
    },
    { id: 'rate-limit-429', quote: 'A 429 is not a verdict.' },
    { id: 'costs-one-or-list', quote: '`costs` in the usage response may be one entry or a list of entries.' },
    { id: 'timestamps', quote: 'Timestamps are RFC 3339 date-times' },
    { id: 'free-state-strings', quote: 'Pipe state, service state and alert state are free strings' },
    { id: 'ip-access-list-optional', quote: "A key's `ipAccessList` is optional" },
    {
      id: 'reflected-fields',
      quote:
        'A response field that carries back what the request gave may be absent (or `null`) ' +
        'when the request left it out',
    },
    { id: 'numbers-rounding', quote: 'Numbers are compared as numbers' },
    { id: 'required-fields-not-shown', quote: 'Which request fields are required is not shown' },
    { id: 'server-error-finding', quote: 'A 5xx answer to any probe is a finding' },
    {
      id: 'passed-needs-evidence',
      quote: 'A rule is `passed` only when every part named under "how it is probed" ran and gave evidence',
    },
  ].map((t) => Object.freeze(t)),
);
