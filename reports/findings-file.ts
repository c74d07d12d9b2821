import { readFile } from 'node:fs/promises';
import type { Outcome } from '../core/finding.ts';
import { HarnessError } from '../core/errors.ts';

/** The part of a `findings.json` that comparisons need: each result's rule, operation, outcome and message. */
export interface FindingsFile {
  readonly file: string;
  readonly outcome: string;
  readonly results: readonly { readonly rule: string; readonly operation: string; readonly operationId?: string; readonly outcome: Outcome; readonly message: string }[];
}

const OUTCOMES: readonly string[] = ['passed', 'failed', 'skipped'];

/** Reads a `findings.json`; an unreadable or malformed file is a FINDINGS_INVALID error naming the file and the entry. */
export async function readFindingsFile(file: string): Promise<FindingsFile> {
  const fail = (what: string, cause?: unknown): never => {
    throw new HarnessError('FINDINGS_INVALID', `${file} ${what}: give a findings.json written by \`conformance\`.`, { cause });
  };
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    return fail(error instanceof SyntaxError ? `is not JSON (${error.message})` : `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, error);
  }
  if (typeof json !== 'object' || json === null || !Array.isArray((json as { results?: unknown }).results)) return fail('has no "results" array');
  const { outcome, results } = json as { outcome?: unknown; results: unknown[] };
  return {
    file,
    outcome: typeof outcome === 'string' ? outcome : 'unknown',
    results: results.map((raw, index) => {
      const r = raw as Record<string, unknown> | null;
      if (!r || typeof r.rule !== 'string' || typeof r.operation !== 'string' || !OUTCOMES.includes(r.outcome as string)) {
        return fail(`has a bad result at results[${index}] (it needs "rule", "operation" and an "outcome" of ${OUTCOMES.join(', ')})`);
      }
      return { rule: r.rule, operation: r.operation, ...(typeof r.operationId === 'string' ? { operationId: r.operationId } : {}), outcome: r.outcome as Outcome, message: typeof r.message === 'string' ? r.message : '' };
    }),
  };
}
