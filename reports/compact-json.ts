import { jsonText } from '../core/json-text.ts';

/**
 * JSON with one entry per line down to `depth` levels (the document's keys, then each entry of its lists and maps),
 * every deeper value on its entry's line: each result of a findings file is one line, for grep and line diffs, and the
 * file carries no indentation inside an entry (a three-fault run's findings.json: 296 KB indented, 217 KB so).
 */
export function compactJson(value: unknown, depth = 2): string {
  return render(value, '', depth);
}

function render(value: unknown, indent: string, depth: number): string {
  // A request body may hold an integer past 2^53 as a bigint: written as its digits, as it was sent.
  const flat = jsonText(value) ?? 'null';
  if (depth === 0 || value === null || typeof value !== 'object') return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + render(item ?? null, inner, depth - 1)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function');
  if (entries.length === 0) return '{}';
  const lines = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${render(v, inner, depth - 1)}`);
  return `{\n${lines.join(',\n')}\n${indent}}`;
}
