/**
 * The run's settings in words, one `[name, words]` pair each, for a person reading a report ("at most 5 requests per
 * second", "no limit").
 */
export function settingsInWords(settings: Readonly<Record<string, unknown>>): [string, string][] {
  return Object.entries(settings).map(([name, value]) => [LABELS[name] ?? name, (WORDS[name] ?? raw)(value)]);
}

const LABELS: Readonly<Record<string, string>> = {
  rules: 'Rules',
  allow: 'Probe classes',
  runs: 'Examples',
  timeoutMs: 'Request timeout',
  budgetMs: 'Run budget',
  maxRps: 'Request rate',
  concurrency: 'Concurrency',
  maxRequests: 'Requests',
  maxResponseBytes: 'Response size',
  shard: 'Shard',
};

const WORDS: Readonly<Record<string, (value: unknown) => string>> = {
  rules: (v) => `${v} rule${v === 1 ? '' : 's'} selected`,
  allow: (v) => (Array.isArray(v) ? `${v.join(', ')} probes allowed` : raw(v)),
  runs: (v) => `${v} example${v === 1 ? '' : 's'} per property`,
  timeoutMs: (v) => `${seconds(v)} per request`,
  budgetMs: (v) => `${seconds(v)} for the whole run`,
  maxRps: (v) =>
    v === 0 || v === null || v === undefined ? 'no limit' : `at most ${v} request${v === 1 ? '' : 's'} per second`,
  concurrency: (v) => `at most ${v} request${v === 1 ? '' : 's'} in flight`,
  maxRequests: (v) =>
    v === null || v === undefined ? 'no limit' : `at most ${v} request${v === 1 ? '' : 's'} in the run`,
  maxResponseBytes: (v) => `response bodies up to ${bytes(v)}`,
  shard: (v) =>
    typeof v === 'string' && /^\d+\/\d+$/.test(v) ? `part ${v.replace('/', ' of ')}` : 'the whole run (not sharded)',
};

function raw(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function seconds(value: unknown): string {
  if (typeof value !== 'number') return raw(value);
  return value % 1000 === 0 ? `${value / 1000} s` : `${value} ms`;
}

function bytes(value: unknown): string {
  if (typeof value !== 'number') return raw(value);
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const)
    if (value >= size && value % size === 0) return `${value / size} ${unit}`;
  return `${value} bytes`;
}
