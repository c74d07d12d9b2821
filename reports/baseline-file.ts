import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HarnessError } from '../core/errors.ts';

/**
 * One known failure: a rule on an operation (its `METHOD /path` key, which entries match on, and its operationId, which
 * baselines written before it was added lack), why it is accepted, and until when (a `YYYY-MM-DD` date, inclusive).
 */
export interface BaselineEntry {
  readonly rule: string;
  readonly operation: string;
  readonly operationId?: string;
  readonly reason: string;
  readonly expires?: string;
}

/** A committed file of known failures. */
export interface Baseline {
  readonly version: 1;
  readonly entries: readonly BaselineEntry[];
}

const ENTRY_FIELDS = new Set(['rule', 'operation', 'operationId', 'reason', 'expires']);
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Reads and validates a baseline file; anything unreadable or malformed is a BASELINE_INVALID error naming the file and the entry. */
export async function readBaseline(file: string, knownRules?: readonly string[]): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new HarnessError('BASELINE_INVALID', `Cannot read the baseline ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Check the path given to --baseline, or create it with --update-baseline.`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HarnessError('BASELINE_INVALID', `The baseline ${file} is not JSON: ${(error as Error).message}.`, { cause: error });
  }
  return parseBaseline(json, file, knownRules);
}

/** Validates parsed baseline JSON; `file` names it in errors. */
export function parseBaseline(json: unknown, file: string, knownRules?: readonly string[]): Baseline {
  const fail = (what: string): never => {
    throw new HarnessError('BASELINE_INVALID', `The baseline ${file} ${what}. Expected { "version": 1, "entries": [ { "rule", "operation", "operationId"?, "reason", "expires"?: "YYYY-MM-DD" } ] }.`);
  };
  if (!isObject(json)) return fail('is not a JSON object');
  if (json.version !== 1) return fail(`has version ${JSON.stringify(json.version)}, not 1`);
  if (!Array.isArray(json.entries)) return fail('has no "entries" array');
  const seen = new Set<string>();
  const entries = json.entries.map((raw: unknown, index: number): BaselineEntry => {
    const at = `entry ${index}`;
    if (!isObject(raw)) return fail(`${at} is not an object`);
    const named = typeof raw.rule === 'string' && typeof raw.operation === 'string' ? `${at} (${raw.rule} on ${raw.operation})` : at;
    const unknown = Object.keys(raw).filter((k) => !ENTRY_FIELDS.has(k));
    if (unknown.length > 0) fail(`${named} has unknown field ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
    for (const field of ['rule', 'operation', 'reason'] as const) {
      if (typeof raw[field] !== 'string' || (raw[field] as string).trim() === '') fail(`${named} has no "${field}" (a non-empty string)`);
    }
    if (knownRules && !knownRules.includes(raw.rule as string)) fail(`${named} names unknown rule ${JSON.stringify(raw.rule)}`);
    if (raw.operationId !== undefined && (typeof raw.operationId !== 'string' || raw.operationId.trim() === '')) fail(`${named} has "operationId" ${JSON.stringify(raw.operationId)}, not a non-empty string`);
    if (raw.expires !== undefined && !isDate(raw.expires)) fail(`${named} has "expires" ${JSON.stringify(raw.expires)}, not a YYYY-MM-DD date`);
    const key = `${raw.rule}\u0000${raw.operation}`;
    if (seen.has(key)) fail(`${named} repeats an earlier entry`);
    seen.add(key);
    return {
      rule: raw.rule as string,
      operation: raw.operation as string,
      ...(raw.operationId === undefined ? {} : { operationId: raw.operationId as string }),
      reason: raw.reason as string,
      ...(raw.expires === undefined ? {} : { expires: raw.expires as string }),
    };
  });
  return { version: 1, entries };
}

/** Writes a baseline file, entries sorted by rule and operation so that diffs stay small. */
export async function writeBaseline(file: string, baseline: Baseline): Promise<void> {
  const entries = [...baseline.entries].sort((a, b) => a.rule.localeCompare(b.rule) || a.operation.localeCompare(b.operation));
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ version: 1, entries }, null, 2)}\n`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isDate(value: unknown): value is string {
  const match = typeof value === 'string' ? DATE.exec(value) : null;
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value as string);
}
