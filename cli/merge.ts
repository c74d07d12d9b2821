import { API_LIST } from '../apis/index.ts';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Shard } from '../settings/config.ts';
import { DEFAULTS } from '../settings/defaults.ts';
import { HarnessError } from '../core/errors.ts';
import { TOOL_VERSION } from '../core/package-root.ts';
import { createRedactor } from '../secrets/redaction.ts';
import { createSecretRegistry } from '../secrets/secret-registry.ts';
import { loadSpecs } from '../spec/spec.ts';
import { judgeWithBaseline, loadBaseline } from '../reports/baseline-run.ts';
import { type FileValidator, fileValidator } from '../reports/file-schemas.ts';
import { applyJudgedGate } from '../reports/judged-gate.ts';
import { readFindingsDocument } from '../reports/findings-file.ts';
import { assembleRunReport, interruptedReport, type RunHeader } from '../reports/run-report.ts';
import { exitCode } from './exit-code.ts';
import { terminalSummary } from '../reports/terminal-summary.ts';
import { writeReports } from '../reports/write-reports.ts';
import { RULE_IDS } from '../rules/index.ts';
import type { Io } from './io.ts';
import type { Collected } from '../run/run-report-types.ts';
import { shardFile } from './suites-run.ts';

/** What one shard left in its report directory that a merge needs: its header, and what its suites produced. */
interface ShardOutput {
  readonly dir: string;
  readonly shard: Shard;
  readonly header: RunHeader;
  readonly requests: number;
  readonly collected: Collected;
  /** The signal that stopped the shard's run before it finished, if one did. */
  readonly interrupted?: 'SIGINT' | 'SIGTERM';
}

/** Settings that decide what a run tests; shards that differ in them are not parts of one run. */
const SAME_SETTINGS: readonly string[] = ['rules', 'allow', 'runs'];

/**
 * `conformance merge DIR... [--report-dir OUT] [--baseline FILE] [--require-judged]`: joins the report directories of
 * the shards of one run (what each shard's suites produced, `shardFile`) into the whole run's reports; exits like a
 * run, `--require-judged` included.
 */
export async function runMerge(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: Io,
): Promise<number> {
  const { dirs, reportDir, baselineFile, requireJudged } = mergeArgs(argv);
  const validate = fileValidator('findings');
  const shards = await Promise.all(dirs.map((dir) => readShard(dir, validate)));
  checkShards(shards);
  const ordered = [...shards].sort((a, b) => a.shard.index - b.shard.index);
  const baseline = baselineFile
    ? await loadBaseline(
        baselineFile,
        false,
        RULE_IDS,
        (await loadSpecs()).operations.map((o) => o.key),
      )
    : undefined;
  // The shards' reports were redacted when recorded; this only masks what they would carry of a secret value (none is
  // known here).
  const redact = createRedactor([], createSecretRegistry()).text;
  const shardDirs = ordered.map((s) => s.dir).join(', ');
  io.out(`conformance merge: ${ordered.length} shard(s) of seed ${ordered[0]!.header.seed}: ${shardDirs}`);

  const collected: Collected = {
    results: ordered.flatMap((s) => s.collected.results),
    suites: ordered.flatMap((s) => s.collected.suites),
    errors: ordered.flatMap((s) => s.collected.errors),
  };
  // A shard stopped before it finished leaves the whole run interrupted, never passed.
  const stopped = ordered.find((s) => s.interrupted)?.interrupted;
  const assembled = assembleRunReport(mergedHeader(ordered), collected, RULE_IDS);
  const report = stopped ? interruptedReport(assembled, stopped) : assembled;
  const judged = applyJudgedGate(
    baseline ? await judgeWithBaseline(report, baseline, new Date()) : report,
    requireJudged,
  );
  const files = await writeReports(reportDir, judged, { out: io.out, env, redact });
  io.out(redact(terminalSummary(judged, io.style)));
  io.out(`Reports in ${resolve(reportDir)}: ${files.map((f) => basename(f)).join(', ')}`);
  return exitCode(judged);
}

function mergeArgs(argv: readonly string[]): {
  dirs: string[];
  reportDir: string;
  baselineFile?: string;
  requireJudged: boolean;
} {
  const parsed = (() => {
    try {
      return parseArgs({
        args: [...argv],
        options: {
          'report-dir': { type: 'string' },
          baseline: { type: 'string' },
          'require-judged': { type: 'boolean' },
        },
        strict: true,
        allowPositionals: true,
      });
    } catch (error) {
      throw new HarnessError(
        'CONFIG_INVALID',
        `${(error as Error).message}. merge takes the shards' report directories: \`conformance merge ` +
          `DIR... [--report-dir OUT] [--baseline FILE] [--require-judged]\`.`,
        {
          cause: error,
        },
      );
    }
  })();
  if (parsed.positionals.length === 0) {
    throw new HarnessError(
      'CONFIG_INVALID',
      'merge needs the report directories of the shards: `conformance merge DIR... [--report-dir OUT]`.',
    );
  }
  const reportDir = parsed.values['report-dir'] ?? DEFAULTS.reportDir;
  if (parsed.positionals.some((dir) => resolve(dir) === resolve(reportDir))) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `--report-dir ${reportDir} is also a shard's directory: give the merged report its own directory.`,
    );
  }
  return {
    dirs: parsed.positionals,
    reportDir,
    ...(parsed.values.baseline ? { baselineFile: parsed.values.baseline } : {}),
    requireJudged: parsed.values['require-judged'] === true,
  };
}

async function readShard(dir: string, validate: FileValidator): Promise<ShardOutput> {
  const file = join(dir, 'findings.json');
  const fail = (what: string, cause?: unknown): never => {
    throw new HarnessError(
      'FINDINGS_INVALID',
      `${dir} is not a shard's report directory: ${what}. Give the --report-dir of each \`conformance ` +
        `--shard i/n\` run.`,
      { cause },
    );
  };
  const json = await readFindingsDocument(file, fail, validate);
  const match = /^(\d+)\/(\d+)$/.exec(typeof json.settings.shard === 'string' ? json.settings.shard : '');
  if (!match) return fail(`${file} is from a run without --shard`);
  const shard = { index: Number(match[1]), count: Number(match[2]) };
  if (json.toolVersion !== TOOL_VERSION)
    return fail(
      `${file} was written by conformance ${json.toolVersion}, and this is ${TOOL_VERSION}: merge with the version ` +
        'that ran the shards',
    );
  const partFile = shardFile(dir, shard);
  const collected = await readFile(partFile, 'utf8').then(
    (text) => JSON.parse(text) as unknown,
    (error: Error) =>
      fail(
        error instanceof SyntaxError
          ? `the shard's part of the run, ${partFile}, is not JSON (${error.message})`
          : `the shard's part of the run, ${partFile}, ${unreadable(error as NodeJS.ErrnoException)}`,
        error,
      ),
  );
  if (!isCollected(collected))
    return fail(`${partFile} is not a shard's part of a run: it lacks its results, suites or errors`);
  if (collected.results.length !== json.results.length)
    return fail(
      `${partFile} holds ${collected.results.length} verdicts where the findings.json beside it holds ` +
        `${json.results.length}: both must come from one run of the same version of conformance`,
    );
  const { seed, startedAt, durationMs, target, settings, replay } = json;
  return {
    dir,
    shard,
    header: { seed, startedAt, durationMs, target, settings, replay },
    requests: json.stats.requests,
    collected,
    ...(json.interrupted ? { interrupted: json.interrupted } : {}),
  };
}

/** Throws FINDINGS_INVALID unless the shards are every part 1..n of one run, each once. */
function checkShards(shards: readonly ShardOutput[]): void {
  const fail = (problem: string): never => {
    throw new HarnessError('FINDINGS_INVALID', `cannot merge: ${problem}.`);
  };
  const name = (s: ShardOutput): string => `${s.dir} (shard ${s.shard.index}/${s.shard.count})`;
  const first = shards[0]!;
  const count = first.shard.count;
  const otherCount = shards.find((s) => s.shard.count !== count);
  if (otherCount)
    fail(
      `the shards split the run differently: ${name(first)} and ${name(otherCount)}; run every shard with ` +
        'the same n in --shard i/n',
    );
  for (let index = 1; index <= count; index += 1) {
    const given = shards.filter((s) => s.shard.index === index);
    if (given.length > 1)
      fail(`shard ${index}/${count} is given ${given.length} times: ${given.map((s) => s.dir).join(', ')}`);
    if (given.length === 0)
      fail(
        `shard ${index}/${count} is missing (given: ${shards.map(name).join(', ')}); give the report ` +
          `directories of all ${count} shards`,
      );
  }
  const otherSeed = shards.find((s) => s.header.seed !== first.header.seed);
  if (otherSeed)
    fail(
      `the shards come from different seeds: ${first.header.seed} in ${first.dir}, ` +
        `${otherSeed.header.seed} in ${otherSeed.dir}; run every shard with the same --seed`,
    );
  const otherTarget = shards.find((s) => targetIdentity(s.header) !== targetIdentity(first.header));
  if (otherTarget)
    fail(
      `the shards ran against different targets: ${targetIdentity(first.header)} in ${first.dir}, ` +
        `${targetIdentity(otherTarget.header)} in ${otherTarget.dir}`,
    );
  for (const setting of SAME_SETTINGS) {
    const value = (s: ShardOutput): string => JSON.stringify(s.header.settings[setting]);
    const other = shards.find((s) => value(s) !== value(first));
    if (other)
      fail(
        `the shards ran with different settings: ${setting} ${value(first)} in ${first.dir}, ` +
          `${value(other)} in ${other.dir}`,
      );
  }
}

/**
 * What names a target across shards: the embedded reference target by its faults and modes (each shard starts its own),
 * any other by its addresses and ids.
 */
function targetIdentity(header: RunHeader): string {
  const { reference } = header.target;
  return JSON.stringify(
    reference ? { reference } : Object.fromEntries(API_LIST.map((api) => [api.name, header.target[api.name]])),
  );
}

/**
 * The whole run's header: shard 1's target and replay, the earliest start, and the wall time from the first start to
 * the last end.
 */
function mergedHeader(shards: readonly ShardOutput[]): RunHeader {
  const starts = shards.map((s) => Date.parse(s.header.startedAt));
  const ends = shards.map((s, i) => starts[i]! + s.header.durationMs);
  const first = shards[0]!.header;
  return {
    seed: first.seed,
    startedAt: new Date(Math.min(...starts)).toISOString(),
    durationMs: Math.max(...ends) - Math.min(...starts),
    target: first.target,
    settings: { ...first.settings, shard: null, shards: shards.length },
    replay: first.replay,
  };
}

/** Why a file could not be read, in words: missing, or the error's code. */
function unreadable(error: NodeJS.ErrnoException): string {
  return error.code === 'ENOENT' ? 'is missing' : `cannot be read (${error.code ?? error.message})`;
}

/** Whether a shard file's JSON has what a shard's suites produced: its results, suites and errors, as lists. */
function isCollected(value: unknown): value is Collected {
  const part = value as Partial<Record<keyof Collected, unknown>> | null;
  return Array.isArray(part?.results) && Array.isArray(part.suites) && Array.isArray(part.errors);
}
