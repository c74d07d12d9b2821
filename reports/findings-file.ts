import { readFile } from 'node:fs/promises';
import type { Outcome } from '../evidence/finding.ts';
import { HarnessError } from '../core/errors.ts';
import type { BaselinedRunReport } from './baseline-comparison.ts';
import { type FileValidator, fileValidator } from './file-schemas.ts';

/** A `findings.json` as read back: the run's report, with the versions of the tool and of the format that wrote it. */
export type FindingsDocument = BaselinedRunReport & { readonly schemaVersion: number; readonly toolVersion: string };

/** The part of a `findings.json` that comparisons need: each result's rule, operation, outcome and message. */
export interface FindingsFile {
  readonly file: string;
  readonly outcome: string;
  readonly results: readonly {
    readonly rule: string;
    readonly operation: string;
    readonly operationId?: string;
    readonly outcome: Outcome;
    readonly message: string;
  }[];
}

/**
 * Reads a `findings.json` and validates it against `schemas/findings.schema.json` (compiled once by the caller that
 * reads several); `fail` turns what is wrong (the file and the field at fault) into the caller's error, by default
 * FINDINGS_INVALID.
 */
export async function readFindingsDocument(
  file: string,
  fail: (problem: string, cause?: unknown) => never = findingsInvalid,
  validate: FileValidator = fileValidator('findings'),
): Promise<FindingsDocument> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    return fail(
      error instanceof SyntaxError
        ? `${file} is not JSON (${error.message})`
        : `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      error,
    );
  }
  const problem = validate(json);
  if (problem) fail(`${file} ${problem}`);
  return json as FindingsDocument;
}

/**
 * Reads a `findings.json` for a comparison; an unreadable or malformed file is a FINDINGS_INVALID error naming the file
 * and the field.
 */
export async function readFindingsFile(
  file: string,
  validate: FileValidator = fileValidator('findings'),
): Promise<FindingsFile> {
  const { outcome, results } = await readFindingsDocument(file, findingsInvalid, validate);
  return {
    file,
    outcome,
    results: results.map(({ rule, operation, operationId, outcome, message }) => ({
      rule,
      operation,
      ...(operationId ? { operationId } : {}),
      outcome,
      message,
    })),
  };
}

function findingsInvalid(problem: string, cause?: unknown): never {
  throw new HarnessError('FINDINGS_INVALID', `${problem}: give a findings.json written by \`conformance\`.`, { cause });
}
