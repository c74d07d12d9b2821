import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { HarnessError } from '../core/errors.ts';
import { type SpecLines, specLines } from './operation-locations.ts';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import { loadSpecs, SPEC_FILES, specsOf, type ApiName, type Specs } from './spec.ts';

/** Where the build writes both specs, dereferenced, with the fingerprints of the files they were read from. */
export const PREPARED_SPECS_FILE = join(PACKAGE_ROOT, 'dist', 'prepared', 'specs.json');

/** Both specs as the build prepared them. */
export interface PreparedSpecs {
  /** The SHA-256 of each spec file the documents were read from. */
  readonly sources: Readonly<Record<ApiName, string>>;
  readonly documents: Readonly<Record<ApiName, OpenAPIV3_1.Document>>;
  /** Where each operation is written in its spec file, so that a run's SARIF needs no YAML parser either. */
  readonly lines: SpecLines;
}

/**
 * Reads and dereferences the shipped spec files, for the build to write out (validating them against OpenAPI 3.1 on the
 * way).
 */
export async function prepareSpecs(): Promise<PreparedSpecs> {
  const [specs, sources, lines] = await Promise.all([
    loadSpecs(SPEC_FILES, { validate: true }),
    sourceFingerprints(),
    specLines(),
  ]);
  return { sources, documents: specs.documents, lines };
}

/**
 * The shipped specs: the build's prepared documents when they were read from the spec files as they are now, so
 * that a run needs no YAML or OpenAPI parser; else read from the files (a spec edited since the build, or no build).
 */
export async function loadShippedSpecs(file: string = PREPARED_SPECS_FILE): Promise<Specs> {
  const [prepared, sources] = await Promise.all([readPrepared(file), sourceFingerprints()]);
  const current =
    prepared && (Object.keys(SPEC_FILES) as ApiName[]).every((api) => prepared.sources[api] === sources[api]);
  return current ? specsOf({ ...prepared.documents }) : loadSpecs();
}

/**
 * Where each operation is written in the shipped spec files: the build's lines when they were read from the files as
 * they are now, else undefined (the caller parses the YAML).
 */
export async function shippedSpecLines(file: string = PREPARED_SPECS_FILE): Promise<SpecLines | undefined> {
  const [prepared, sources] = await Promise.all([readPrepared(file), sourceFingerprints()]);
  const current =
    prepared?.lines !== undefined &&
    (Object.keys(SPEC_FILES) as ApiName[]).every((api) => prepared.sources[api] === sources[api]);
  return current ? prepared.lines : undefined;
}

/** The SHA-256 of each shipped spec file, by API: what a run's evidence bundle names its specs by. */
export async function sourceFingerprints(): Promise<Record<ApiName, string>> {
  const apis = Object.keys(SPEC_FILES) as ApiName[];
  const texts = await Promise.all(apis.map((api) => readFile(SPEC_FILES[api])));
  return Object.fromEntries(
    apis.map((api, i) => [api, createHash('sha256').update(texts[i]!).digest('hex')]),
  ) as Record<ApiName, string>;
}

async function readPrepared(file: string): Promise<PreparedSpecs | undefined> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as PreparedSpecs;
  } catch (error) {
    throw new HarnessError(
      'SPEC_INVALID',
      `The prepared specs ${file} cannot be read (${(error as Error).message}); rebuild the package with ` +
        `\`npm run build\`.`,
      { cause: error },
    );
  }
}
