import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HarnessError } from '../core/errors.ts';
import { jsonPath, schemaProblem } from './file-schemas.ts';

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

/**
 * Reads and validates a baseline file against `schemas/baseline.schema.json`, `knownRules` and `knownOperations` (when
 * given); anything unreadable, malformed or naming what does not exist is a BASELINE_INVALID error naming the file and
 * the entry.
 */
export async function readBaseline(
  file: string,
  knownRules?: readonly string[],
  knownOperations?: readonly string[],
): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new HarnessError(
      'BASELINE_INVALID',
      `Cannot read the baseline ${file}: ` +
        `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Check the path given to ` +
        '--baseline, or create it with --update-baseline.',
      { cause: error },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HarnessError('BASELINE_INVALID', `The baseline ${file} is not JSON: ${(error as Error).message}.`, {
      cause: error,
    });
  }
  return parseBaseline(json, file, knownRules, knownOperations);
}

/**
 * Validates parsed baseline JSON against the published schema and, when given, the rule ids and operations (`METHOD
 * /path`) that exist; `file` names it in errors.
 */
export function parseBaseline(
  json: unknown,
  file: string,
  knownRules?: readonly string[],
  knownOperations?: readonly string[],
): Baseline {
  const fail = (what: string): never => {
    throw new HarnessError(
      'BASELINE_INVALID',
      `The baseline ${file} ${what}. Expected { "version": 1, "entries": [ { "rule", "operation", ` +
        '"operationId"?, "reason", "expires"?: "YYYY-MM-DD" } ] } (schemas/baseline.schema.json).',
    );
  };
  const named = (index: number): string => {
    const raw = (json as { entries: unknown[] }).entries[index] as Partial<Record<string, unknown>> | null;
    return typeof raw?.rule === 'string' && typeof raw.operation === 'string'
      ? `entry ${index} (${raw.rule} on ${raw.operation})`
      : `entry ${index}`;
  };
  const problem = schemaProblem('baseline', json, (pointer) => {
    const entry = /^\/entries\/(\d+)$/.exec(pointer);
    return entry ? named(Number(entry[1])) : jsonPath(pointer);
  });
  if (problem) fail(problem);
  const seen = new Set<string>();
  const entries = (json as Baseline).entries.map((raw, index): BaselineEntry => {
    if (knownRules && !knownRules.includes(raw.rule))
      fail(`${named(index)} names unknown rule ${JSON.stringify(raw.rule)}`);
    if (knownOperations && !knownOperations.includes(raw.operation)) {
      fail(
        `${named(index)} names operation ${JSON.stringify(raw.operation)}, which no spec has, so the entry ` +
          'would never apply: give the "METHOD /path" that findings.json names',
      );
    }
    const key = `${raw.rule}\u0000${raw.operation}`;
    if (seen.has(key)) fail(`${named(index)} repeats an earlier entry`);
    seen.add(key);
    return {
      rule: raw.rule,
      operation: raw.operation,
      ...(raw.operationId === undefined ? {} : { operationId: raw.operationId }),
      reason: raw.reason,
      ...(raw.expires === undefined ? {} : { expires: raw.expires }),
    };
  });
  return { version: 1, entries };
}

/** Writes a baseline file, entries sorted by rule and operation so that diffs stay small. */
export async function writeBaseline(file: string, baseline: Baseline): Promise<void> {
  const entries = [...baseline.entries].sort(
    (a, b) => a.rule.localeCompare(b.rule) || a.operation.localeCompare(b.operation),
  );
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ version: 1, entries }, null, 2)}\n`);
}
