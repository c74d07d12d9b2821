import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { DEFAULTS } from '../settings/defaults.ts';
import type { RunReport } from '../run/run-report-types.ts';
import type { SequenceExample } from '../evidence/sequence-example.ts';
import { runInProcess, type InProcessRun } from './support/in-process.ts';

/** A fault whose shortest failing sequences need two pipes, and whose failing step is a read-back. */
const FAULT = 'pipe-update-settings-spill';
/**
 * One request at a time: sequences run one after another and send no writes at once, so that no other sequence's spill
 * lands between two steps of one and every cause fails again alone.
 */
const ARGS = [
  '--runs',
  '4',
  '--seed',
  '20261122',
  '--timeout-ms',
  '1500',
  '--concurrency',
  '1',
  '--reference-fault',
  FAULT,
];

/** The run's plan total and the put-backs kept beyond it, from `--dry-run` (the embedded target has no preflight). */
async function plannedTotal(): Promise<{ planned: number; kept: number }> {
  const lines: string[] = [];
  const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
  expect(await main([...ARGS, '--dry-run'], {}, io)).toBe(0);
  const text = lines.join('\n');
  return {
    planned: Number(/Total: (\d+) request/.exec(text)?.[1]),
    kept: Number(/Kept for put-backs: (\d+) request/.exec(text)?.[1] ?? 0),
  };
}

/** The sequence each cause (`rule on operationId`) carries, in the order of the results. */
function sequences(report: RunReport): Map<string, SequenceExample> {
  const byCause = new Map<string, SequenceExample>();
  for (const result of report.results) {
    const sequence = result.findings.find((f) => f.sequence)?.sequence;
    if (sequence) byCause.set(`${result.rule} on ${result.operationId}`, sequence);
  }
  return byCause;
}

/** What the HAR says of an exchange: its operation, and the property whose failure it was a shrink candidate of. */
interface HarSeen {
  readonly _operationId: string;
  readonly _shrink?: { readonly property: string };
}

describe(`shrinking a failing sequence (${FAULT})`, () => {
  let folder: string;
  let planned: number;
  let kept: number;
  let full: InProcessRun;
  let har: HarSeen[];
  /** A run of `ARGS` with `more`, and its HAR. */
  const run = async (name: string, more: readonly string[]): Promise<{ run: InProcessRun; har: HarSeen[] }> => {
    const file = join(folder, `${name}.har`);
    const done = await runInProcess([...ARGS, '--har', file, ...more]);
    return {
      run: done,
      har: (JSON.parse(await readFile(file, 'utf8')) as { log: { entries: HarSeen[] } }).log.entries,
    };
  };
  const outcomes = (report: RunReport): string[] => report.results.map((r) => `${r.rule} ${r.operation} ${r.outcome}`);

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'conformance-sequences-'));
    ({ planned, kept } = await plannedTotal());
    ({ run: full, har } = await run('full', []));
  }, 120_000);
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('shrinks each cause to the steps it needs: the read-back narrowed to one pipe, the last command left out', () => {
    const found = sequences(full.report);
    // The steps, each pipe after the creates named by the order it first appears in (A, B): which of the two a
    // shrunk sequence updates first is the draw's.
    const shape = (cause: string): string[] | undefined => {
      const names = new Map<string, string>();
      return found.get(cause)?.steps.map((step) => {
        const command = step.command.replace(/ \(.*$/, '');
        if (command.startsWith('create ')) return command;
        return command.replace(/#(\d)/, (_, n: string) => {
          if (!names.has(n)) names.set(n, 'AB'[names.size]!);
          return names.get(n)!;
        });
      });
    };
    // A partial settings update of one pipe spills into the other: the other's read shows it.
    expect(shape('pipes.state-consistent on getPipeSettings')).toEqual([
      'create pipe #1',
      'create pipe #2',
      'update pipe A',
      'read the settings of pipe B',
    ]);
    // update-applies judges the read of a pipe that an update of its own set: two updates, the second spilling.
    expect(shape('pipes.update-applies on getPipeSettings')).toEqual([
      'create pipe #1',
      'create pipe #2',
      'update pipe A',
      'update pipe B',
      'read the settings of pipe A',
    ]);
    for (const [cause, sequence] of found) {
      expect(sequence, cause).toMatchObject({ outcome: 'shrunk', complete: true, failingStep: sequence.steps.length });
      expect(sequence.replay.path, cause).toMatch(/^\d+(:\d+)+$/);
      expect(sequence.requests, cause).toBeLessThanOrEqual(DEFAULTS.sequenceShrinkRequestsPerCause);
    }
  });

  it('caps each cause on its own, and counts every candidate step on its probe, none as coverage', () => {
    const found = [...sequences(full.report).values()];
    const spent = found.reduce((n, s) => n + s.requests, 0);
    // The causes together spent more than one cause may: the cap is per cause, not shared by the run's sequences.
    expect(spent).toBeGreaterThan(DEFAULTS.sequenceShrinkRequestsPerCause);
    const minimal = full.report.results.flatMap((r) => r.findings).reduce((n, f) => n + (f.minimal?.requests ?? 0), 0);
    expect(har.filter((e) => e._shrink?.property === 'pipes/sequences')).toHaveLength(spent);
    expect(har.filter((e) => e._shrink)).toHaveLength(spent + minimal);
    const steps = (full.report.coverage ?? [])
      .filter((row) => ['createPipe', 'updatePipe', 'getPipeSettings'].includes(row.operationId ?? ''))
      .reduce((n, row) => n + (row.sequences?.steps ?? 0), 0);
    const sent = har.filter(
      (e) => !e._shrink && ['createPipe', 'updatePipe', 'getPipeSettings'].includes(e._operationId),
    ).length;
    expect(steps).toBeGreaterThan(0);
    expect(steps).toBeLessThan(sent);
  });

  it('under --max-requests spends only what the plan leaves, stops between two steps when it is spent, and ' +
    'says so; never past --max-requests', async () => {
    const spare = 10;
    const limit = planned + kept + spare;
    const tight = await run('tight', ['--max-requests', String(limit)]);
    const found = [...sequences(tight.run.report).values()];
    expect(found.length).toBeGreaterThan(0);
    const shrinks = tight.har.filter((e) => e._shrink);
    expect(shrinks.length).toBeLessThanOrEqual(spare);
    expect(found.reduce((n, s) => n + s.requests, 0)).toBe(
      tight.har.filter((e) => e._shrink?.property === 'pipes/sequences').length,
    );
    const words =
      `--max-requests ${limit} leaves ${spare} request(s) beyond the ${planned} the plan needs and the ${kept} kept ` +
      'for put-backs';
    for (const sequence of found) {
      expect(sequence.complete).toBe(false);
      expect(sequence.reason).toBe(`${words}, and shrinking has spent them`);
    }
    expect(tight.run.report.stats.requests).toBeLessThanOrEqual(limit);
    expect(tight.run.output.replace(/\s+/g, ' ')).toContain(words);
    // Shrinking took nothing the plan needed: every verdict is the unbounded run's.
    expect(outcomes(tight.run.report)).toEqual(outcomes(full.report));

    const none = await run('none', ['--max-requests', String(planned + kept)]);
    const left = [...sequences(none.run.report).values()];
    expect(left.length).toBeGreaterThan(0);
    for (const sequence of left)
      expect(sequence).toMatchObject({
        outcome: 'skipped',
        requests: 0,
        complete: false,
        reason:
          `--max-requests ${planned + kept} leaves 0 request(s) beyond the ${planned} the plan needs and the ${kept} ` +
          'kept for put-backs, and shrinking has spent them',
      });
    expect(none.har.filter((e) => e._shrink)).toEqual([]);
    expect(none.run.report.stats.requests).toBeLessThanOrEqual(planned + kept);
    expect(none.run.output.replace(/\s+/g, ' ')).toContain('not shrunk: --max-requests');
    expect(outcomes(none.run.report)).toEqual(outcomes(full.report));
  }, 120_000);
});

describe('a sequence step that goes unanswered', () => {
  it('ends its sequence: the state it left is unknown, so no later step of it is sent or judged', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'conformance-unanswered-'));
    try {
      const file = join(folder, 'run.har');
      const args = ['--runs', '4', '--seed', '20261121', '--timeout-ms', '300', '--reference-fault', 'settings-hang'];
      const done = await runInProcess([...args, '--har', file]);
      // Only transport.answers fails, on the settings reads that hang (on a loaded machine, 300 ms may also cut
      // another operation's answer: that is the same rule, and no sign of a later step judged).
      const failed = done.report.results.filter((r) => r.outcome === 'failed');
      expect([...new Set(failed.map((r) => r.rule))]).toEqual(['transport.answers']);
      expect(failed.map((r) => r.operationId)).toContain('getPipeSettings');
      const entries = (
        JSON.parse(await readFile(file, 'utf8')) as {
          log: { entries: { _operationId: string; _example?: { property: string; index: number } }[] };
        }
      ).log.entries;
      const ofSequences = entries.filter((e) => e._example?.property === 'pipes/sequences');
      const sequenceIndexes = new Set(ofSequences.map((e) => e._example!.index));
      const settingsReads = ofSequences.filter((e) => e._operationId === 'getPipeSettings');
      // Every settings read hangs: each sequence sends its first and stops there (it would send up to 14 otherwise).
      expect(sequenceIndexes.size).toBeGreaterThanOrEqual(4);
      expect(settingsReads.length).toBe(sequenceIndexes.size);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
