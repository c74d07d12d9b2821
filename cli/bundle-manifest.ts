import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { sourceFingerprints } from '../spec/prepared-specs.ts';
import type { RunReport } from '../run/run-report-types.ts';
import { TOOL } from '../reports/tool-version.ts';
import { RULES } from '../rules/index.ts';

/** The file a bundle is described by. */
export const MANIFEST_FILE = 'manifest.json';

/** A file of a bundle: its name in the folder, size, SHA-256, and the published format it is checked against. */
export interface BundleFile {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly format?: 'findings' | 'har';
}

/** What manifest.json holds (schemas/manifest.schema.json). */
export interface Manifest {
  readonly schemaVersion: 1;
  readonly tool: { readonly name: string; readonly version: string };
  readonly createdAt: string;
  readonly specs: Readonly<Record<string, string>>;
  readonly ruleTable: { readonly rules: number; readonly sha256: string };
  readonly run: {
    readonly seed: number;
    readonly startedAt: string;
    readonly outcome: RunReport['outcome'];
    readonly requests: number;
    readonly target: RunReport['target'];
    readonly settings: RunReport['settings'];
    readonly verdicts: {
      readonly passed: number;
      readonly failed: number;
      readonly skipped: number;
      readonly skippedByChoice: number;
      readonly notJudged: number;
    };
  };
  readonly files: readonly BundleFile[];
  readonly digest: string;
}

/** What this installation judges by, as a manifest names it: the tool, the specs' and the rule table's digests. */
export interface Provenance {
  readonly tool: Manifest['tool'];
  readonly specs: Manifest['specs'];
  readonly ruleTable: Manifest['ruleTable'];
}

/** The SHA-256 of a file, read as a stream (a HAR may be large). */
export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** This installation's tool, specs and rule table (the rules' data as RULES.md gives it, as JSON). */
export async function currentProvenance(): Promise<Provenance> {
  const table = JSON.stringify(
    RULES.map(({ id, basis, title, sentence, probedBy }) => ({ id, basis, title, sentence, probedBy })),
  );
  return {
    tool: { name: TOOL.name, version: TOOL.version },
    specs: await sourceFingerprints(),
    ruleTable: { rules: RULES.length, sha256: createHash('sha256').update(table).digest('hex') },
  };
}

/** The digest a manifest carries: the SHA-256 of its JSON without `digest`. */
export function manifestDigest(manifest: Omit<Manifest, 'digest'> & { digest?: string }): string {
  const { digest: _ignored, ...rest } = manifest;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
}

/** The manifest of a run's files, with its digest. */
export function buildManifest(
  provenance: Provenance,
  report: RunReport,
  files: readonly BundleFile[],
  createdAt: Date,
): Manifest {
  const { stats } = report;
  const body: Omit<Manifest, 'digest'> = {
    schemaVersion: 1,
    ...provenance,
    createdAt: createdAt.toISOString(),
    run: {
      seed: report.seed,
      startedAt: report.startedAt,
      outcome: report.outcome,
      requests: stats.requests,
      target: report.target,
      settings: report.settings,
      verdicts: {
        passed: stats.passed,
        failed: stats.failed,
        skipped: stats.skipped,
        skippedByChoice: stats.skippedByChoice,
        notJudged: stats.notJudged,
      },
    },
    files,
  };
  return { ...body, digest: manifestDigest(body) };
}
