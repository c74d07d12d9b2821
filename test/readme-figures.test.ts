import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { main as Main } from '../cli/main.ts';
import { DEFAULTS } from '../core/defaults.ts';
import { ANNOTATIONS_PER_KIND } from '../reports/github-annotations.ts';
import { ROOT } from './support/cli.ts';
import { runInProcess } from './support/in-process.ts';

const { main } = (await import(new URL('../dist/cli/main.js', import.meta.url).href)) as { main: typeof Main };

/** README as one line of text, so that a figure is found wherever the paragraph wraps. */
const README = (await readFile(join(ROOT, 'README.md'), 'utf8')).replace(/\s+/g, ' ');

/** The numbers `pattern` captures in README (it must be there once), commas of thousands dropped. */
function stated(pattern: RegExp): number[] {
  const matches = [...README.matchAll(new RegExp(pattern.source, 'g'))];
  expect(matches.length, `README states ${pattern.source} once`).toBe(1);
  return matches[0]!.slice(1).map((n) => Number(n.replaceAll(',', '')));
}

/** README's figures at `pattern` are `figures`: a stale one fails naming the sentence. */
function expectStated(pattern: RegExp, figures: readonly number[]): void {
  expect(stated(pattern), `README: ${pattern.source}`).toEqual(figures);
}

/** What `conformance --dry-run` prints with these flags and this environment. */
async function dryRun(args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const lines: string[] = [];
  const code = await main(['--dry-run', ...args], env, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  expect(code).toBe(0);
  return lines.join('\n');
}

const total = (text: string): number => Number(/Total: (\d+) request/.exec(text)?.[1]);
/** The put-backs a dry run keeps beyond its total. */
const putBacks = (text: string): number => Number(/Kept for put-backs: (\d+) request/.exec(text)?.[1] ?? 0);

/** A target of one's own, as the preflight sees it (a dry run sends nothing to it). */
const OWN_TARGET = {
  MANAGEMENT_BASE_URL: 'http://127.0.0.1:9',
  MANAGEMENT_KEY_ID: 'k',
  MANAGEMENT_KEY_SECRET: 'readme-figures-secret',
  ORGANIZATION_ID: 'o',
  SERVICE_ID: 's',
  BACKUP_ID: 'b',
  ALERTS_BASE_URL: 'http://127.0.0.1:9',
  ALERTS_TOKEN: 'readme-figures-token',
};

describe("README's figures are the code's", () => {
  let plan: {
    default: number;
    defaultPutBacks: number;
    smallest: number;
    smallestPutBacks: number;
    usagePeriodLimit: string;
    preflightGets: number;
  };
  let clean: { tests: number; passed: number; skipped: number };

  beforeAll(async () => {
    const [whole, smallest, usage, own, run] = await Promise.all([
      dryRun([]),
      dryRun(['--runs', '1']),
      dryRun(['--rules', 'usage.period-limit']),
      dryRun(['--runs', '1'], OWN_TARGET),
      runInProcess(['--runs', '1', '--seed', '1']),
    ]);
    const preflight = /Preflight, before the first probe: (.*)/.exec(own)?.[1] ?? '';
    plan = {
      default: total(whole),
      defaultPutBacks: putBacks(whole),
      smallest: total(smallest),
      smallestPutBacks: putBacks(smallest),
      usagePeriodLimit: /Total: (.*)/.exec(usage)?.[1] ?? '',
      preflightGets: preflight.split(';').filter((part) => /\bGET\b/.test(part)).length,
    };
    expect(run.code).toBe(0);
    clean = { tests: run.report.results.length, passed: run.report.stats.passed, skipped: run.report.stats.skipped };
  });

  it('the requests a default run sends, and what one request per second makes of it', () => {
    expectStated(/\((\d+) requests, concurrency (\d+)\)/, [plan.default, DEFAULTS.concurrency]);
    expectStated(/a second per request \((\d+) s\)/, [plan.default]);
    expectStated(/beyond the (\d+) the plan needs/, [plan.default]);
    const [limit, left, kept] = stated(
      /--max-requests (\d+) leaves (\d+) request\(s\) beyond the \d+ the plan needs and the (\d+) kept for put-backs/,
    );
    expect(kept, 'README: the shrink example, the put-backs kept').toBe(plan.defaultPutBacks);
    expect(limit! - left! - kept!, 'README: the shrink example, --max-requests N leaves M beyond').toBe(plan.default);
  });

  it('the smallest plan, and the limit that leaves every rule judged against a target of your own', () => {
    expectStated(/prints the smallest plan: (\d+) requests today/, [plan.smallest]);
    expectStated(/: (\d+) of them today, so the smallest plan fits in `--max-requests (\d+)`/, [
      plan.smallestPutBacks,
      plan.smallest + plan.smallestPutBacks,
    ]);
    expect(plan.preflightGets).toBe(3);
    const [limit, smallest, kept, gets, seconds] = stated(
      new RegExp(
        '`--max-requests (\\d+) --max-rps 1` \\(the (\\d+) of the smallest plan, the (\\d+) put-backs it keeps and ' +
          "the preflight's (\\d+) GETs\\) (\\d+) s",
      ),
    );
    expect({ limit, smallest, kept, gets, seconds }, 'README: --max-requests … --max-rps 1').toEqual({
      limit: plan.smallest + plan.smallestPutBacks + plan.preflightGets,
      smallest: plan.smallest,
      kept: plan.smallestPutBacks,
      gets: plan.preflightGets,
      // A clean run sends no put-back beyond the plan.
      seconds: plan.smallest + plan.preflightGets,
    });
  });

  it('the GETs of one rule', () => {
    const [gets] = stated(/`--rules usage\.period-limit` sends (\d+) GETs/);
    expect(plan.usagePeriodLimit, 'README: --rules usage.period-limit sends N GETs').toMatch(
      new RegExp(`^${gets} request\\(s\\) \\(read ${gets}, write 0, disruptive 0\\)`),
    );
  });

  it('the tests the vitest entry registers against the reference target, passed and skipped', () => {
    expectStated(
      /`startReference`: (\d+) tests \(one per rule and operation it concerns\), (\d+) passed, (\d+) skipped/,
      [clean.tests, clean.passed, clean.skipped],
    );
  });

  it('the defaults and caps it names', () => {
    expectStated(/after N ms of run time \(default (\d+)\)/, [DEFAULTS.budgetMs]);
    expectStated(/`--timeout-ms N` \(default (\d+)\)/, [DEFAULTS.timeoutMs]);
    expectStated(/at most (\d+) requests per failure and (\d+) per run/, [
      DEFAULTS.shrinkRequestsPerCause,
      DEFAULTS.shrinkRequestsPerRun,
    ]);
    expectStated(/may send at most (\d+) requests/, [DEFAULTS.sequenceShrinkRequestsPerCause]);
    expectStated(/Failures are annotations, worst first, at most (\d+) of each/, [ANNOTATIONS_PER_KIND]);
  });
});
