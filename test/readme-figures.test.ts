import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { main as Main } from '../cli/main.ts';
import { DEFAULTS } from '../settings/defaults.ts';
import { ANNOTATIONS_PER_KIND } from '../reports/github-annotations.ts';
import { ROOT } from './support/cli.ts';
import { runInProcess } from './support/in-process.ts';

const { main } = (await import(new URL('../dist/cli/main.js', import.meta.url).href)) as { main: typeof Main };

/** The pages of docs/ that `conformance docs` writes: no figure of this test lives there. */
const GENERATED = ['rules.md', 'traceability.md'];

/** The hand-written documents: README.md and the guides and explanations under docs/. */
const PAGES = [
  'README.md',
  ...(await readdir(join(ROOT, 'docs')))
    .filter((name) => name.endsWith('.md') && !GENERATED.includes(name))
    .sort()
    .map((name) => `docs/${name}`),
];

/** Each document as one line of text, so that a figure is found wherever the paragraph wraps. */
const TEXT = new Map(
  await Promise.all(
    PAGES.map(async (page) => [page, (await readFile(join(ROOT, page), 'utf8')).replace(/\s+/g, ' ')] as const),
  ),
);

/** The numbers `pattern` captures in `page`, where it must be once and in no other document (commas dropped). */
function stated(page: string, pattern: RegExp): number[] {
  const where = PAGES.filter((other) => new RegExp(pattern.source).test(TEXT.get(other)!));
  expect(where, `the documents state ${pattern.source} in ${page} only`).toEqual([page]);
  const matches = [...TEXT.get(page)!.matchAll(new RegExp(pattern.source, 'g'))];
  expect(matches.length, `${page} states ${pattern.source} once`).toBe(1);
  return matches[0]!.slice(1).map((n) => Number(n.replaceAll(',', '')));
}

/** The figures of `page` at `pattern` are `figures`: a stale one fails naming the page and the sentence. */
function expectStated(page: string, pattern: RegExp, figures: readonly number[]): void {
  expect(stated(page, pattern), `${page}: ${pattern.source}`).toEqual(figures);
}

/** Where each figure lives: a guide or an explanation under docs/. */
const STAGING = 'docs/staging-and-safety.md';
const SHRINKING = 'docs/sequences-and-shrinking.md';
const VITEST = 'docs/vitest.md';
const ACTIONS = 'docs/github-actions.md';

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

describe("the documents' figures are the code's, each in the page that states it", () => {
  let plan: {
    default: number;
    defaultPutBacks: number;
    smallest: number;
    smallestPutBacks: number;
    usagePeriodLimit: string;
    preflightGets: number;
  };
  let clean: { tests: number; passed: number; skipped: number; onState: number };

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
    clean = {
      tests: run.report.results.length,
      passed: run.report.stats.passed,
      skipped: run.report.stats.skipped,
      // Against a configured target the service's state (class disruptive) is left out by default.
      onState: run.report.results.filter((r) => r.operationId === 'changeServiceState' && r.outcome === 'passed')
        .length,
    };
  });

  it('the requests a default run sends, and what one request per second makes of it', () => {
    expectStated(STAGING, /\((\d+) requests, concurrency (\d+)\)/, [plan.default, DEFAULTS.concurrency]);
    expectStated(STAGING, /a second per request \((\d+) s\)/, [plan.default]);
    expectStated(SHRINKING, /beyond the (\d+) the plan needs/, [plan.default]);
    expectStated(SHRINKING, /of a default run's (\d+) requests/, [plan.default]);
    const [limit, left, kept] = stated(
      SHRINKING,
      /--max-requests (\d+) leaves (\d+) request\(s\) beyond the \d+ the plan needs and the (\d+) kept for put-backs/,
    );
    expect(kept, `${SHRINKING}: the shrink example, the put-backs kept`).toBe(plan.defaultPutBacks);
    expect(limit! - left! - kept!, `${SHRINKING}: the shrink example, --max-requests N leaves M beyond`).toBe(
      plan.default,
    );
  });

  it('the smallest plan, and the limit that leaves every rule judged against a target of your own', () => {
    expectStated(STAGING, /prints the smallest plan: (\d+) requests today/, [plan.smallest]);
    expectStated(STAGING, /: (\d+) of them today, so the smallest plan fits in `--max-requests (\d+)`/, [
      plan.smallestPutBacks,
      plan.smallest + plan.smallestPutBacks,
    ]);
    expect(plan.preflightGets).toBe(3);
    const [limit, smallest, kept, gets, seconds] = stated(
      STAGING,
      new RegExp(
        '`--max-requests (\\d+) --max-rps 1` \\(the (\\d+) of the smallest plan, the (\\d+) put-backs it keeps and ' +
          "the preflight's (\\d+) GETs\\) (\\d+) s",
      ),
    );
    expect({ limit, smallest, kept, gets, seconds }, `${STAGING}: --max-requests … --max-rps 1`).toEqual({
      limit: plan.smallest + plan.smallestPutBacks + plan.preflightGets,
      smallest: plan.smallest,
      kept: plan.smallestPutBacks,
      gets: plan.preflightGets,
      // A clean run sends no put-back beyond the plan.
      seconds: plan.smallest + plan.preflightGets,
    });
  });

  it('the GETs of one rule', () => {
    const [gets] = stated(STAGING, /`--rules usage\.period-limit` sends (\d+) GETs/);
    expect(plan.usagePeriodLimit, `${STAGING}: --rules usage.period-limit sends N GETs`).toMatch(
      new RegExp(`^${gets} request\\(s\\) \\(read ${gets}, write 0, disruptive 0\\)`),
    );
  });

  it('the tests the vitest entry registers against the reference target, passed and skipped', () => {
    expectStated(
      VITEST,
      /`startReference`: (\d+) tests \(one per rule and operation it concerns\), (\d+) passed, (\d+) skipped \((\d+)/,
      [clean.tests, clean.passed - clean.onState, clean.skipped + clean.onState, clean.onState],
    );
  });

  it('the defaults and caps it names', () => {
    expectStated(STAGING, /after N ms of run time \(default (\d+)\)/, [DEFAULTS.budgetMs]);
    expectStated(STAGING, /`--timeout-ms N` \(default (\d+)\)/, [DEFAULTS.timeoutMs]);
    expectStated(SHRINKING, /at most (\d+) requests per failure and (\d+) per run/, [
      DEFAULTS.shrinkRequestsPerCause,
      DEFAULTS.shrinkRequestsPerRun,
    ]);
    expectStated(SHRINKING, /may send at most (\d+) requests/, [DEFAULTS.sequenceShrinkRequestsPerCause]);
    expectStated(ACTIONS, /Failures are annotations, worst first, at most (\d+) of each/, [ANNOTATIONS_PER_KIND]);
  });
});

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, each space a `-`. */
const anchor = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-');

describe('the documents link one another', () => {
  it('README links every page under docs/', () => {
    const readme = TEXT.get('README.md')!;
    const pages = [...PAGES.filter((page) => page !== 'README.md'), ...GENERATED.map((name) => `docs/${name}`)];
    expect(pages.filter((page) => !readme.includes(`](${page}`))).toEqual([]);
  });

  it('every relative link of a document names a file there is, and a heading of it', async () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const [, target] of TEXT.get(page)!.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [file, hash] = target!.split('#') as [string, string | undefined];
        const path = file === '' ? page : join(page, '..', file);
        const text = await readFile(join(ROOT, path), 'utf8').catch(() => undefined);
        const headings = [...(text ?? '').matchAll(/^#+ (.*)$/gm)].map((m) => anchor(m[1]!));
        if (text === undefined || (hash !== undefined && !headings.includes(hash))) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
