import { describe, expect, it } from 'vitest';
import { resolveConfig, type RunConfig } from '../settings/config.ts';
import { replayCommand } from '../evidence/replay.ts';
import { RULE_IDS } from '../rules/index.ts';
import { runInProcess } from './support/in-process.ts';

/** The flags of a replay line, as argv. */
const flagsOf = (line: string): string[] => {
  expect(line.startsWith('npx conformance ')).toBe(true);
  return line.slice('npx conformance '.length).split(' ');
};

/** Every setting that bounds or narrows a run. */
const limits = (config: RunConfig) => ({
  seed: config.seed,
  runs: config.runs,
  reference: config.reference,
  rules: config.rules,
  allow: config.allow,
  maxRps: config.maxRps,
  concurrency: config.concurrency,
  maxRequests: config.maxRequests,
  timeoutMs: config.timeoutMs,
  budgetMs: config.budgetMs,
  maxResponseBytes: config.maxResponseBytes,
});

const RESTRICTED = [
  '--allow',
  'read,write',
  '--max-rps',
  '50',
  '--concurrency',
  '2',
  '--max-requests',
  '300',
  '--timeout-ms',
  '4000',
  '--budget-ms',
  '120000',
];

describe('replay keeps every limit', () => {
  it('resolves the replay line of a restricted config to the same limits', () => {
    const argv = [
      ...RESTRICTED,
      '--seed',
      '7',
      '--runs',
      '3',
      '--skip-rules',
      'auth.required',
      '--max-response-bytes',
      '65536',
      '--reference-fault',
      'auth-any-secret',
    ];
    const config = resolveConfig(argv, {}, RULE_IDS);
    const line = replayCommand(config);
    expect(line).toBe(
      'npx conformance --seed 7 --runs 3 --reference-fault auth-any-secret --allow read,write --max-rps 50 ' +
        '--concurrency 2 --max-requests 300 --timeout-ms 4000 --budget-ms 120000 --max-response-bytes 65536 ' +
        '--skip-rules auth.required',
    );
    expect(limits(resolveConfig(flagsOf(line), {}, RULE_IDS))).toEqual(limits(config));
    const narrowed = resolveConfig(['--rules', 'auth.required,secrets.absent', '--allow', 'read'], {}, RULE_IDS);
    expect(limits(resolveConfig(flagsOf(replayCommand(narrowed)), {}, RULE_IDS))).toEqual(limits(narrowed));
  });

  it('names no target setting nor secret', () => {
    const config = resolveConfig(
      RESTRICTED,
      {
        MANAGEMENT_BASE_URL: 'https://api.example.test',
        MANAGEMENT_KEY_ID: 'kid-1234',
        MANAGEMENT_KEY_SECRET: 'sekret-5678',
        ORGANIZATION_ID: 'org-1',
        SERVICE_ID: 'svc-1',
        ALERTS_BASE_URL: 'https://alerts.example.test',
        ALERTS_TOKEN: 'tok-9999',
      },
      RULE_IDS,
    );
    const line = replayCommand(config, 'auth.required');
    for (const value of ['kid-1234', 'sekret-5678', 'tok-9999', 'example.test', 'org-1', 'svc-1'])
      expect(line).not.toContain(value);
    expect(line).toContain('--allow read,write --max-rps 50 --concurrency 2 --max-requests 300');
  });

  it(
    'a restricted run prints replay lines that carry ' + 'every limit, in findings.json and in every ' + 'reproduction',
    async () => {
      const run = await runInProcess([...RESTRICTED, '--seed', '5', '--reference-fault', 'auth-any-secret']);
      expect(run.code).toBe(1);
      const config = resolveConfig(flagsOf(run.report.replay), {}, RULE_IDS);
      expect(config).toMatchObject({
        allow: ['read', 'write'],
        maxRps: 50,
        concurrency: 2,
        maxRequests: 300,
        timeoutMs: 4000,
        budgetMs: 120000,
        seed: 5,
        reference: { faults: ['auth-any-secret'], modes: [] },
      });
      const commands = run.report.results.flatMap((r) => r.findings.map((f) => f.reproduce.command));
      expect(commands.length).toBeGreaterThan(0);
      for (const command of commands) {
        const replayed = resolveConfig(flagsOf(command), {}, RULE_IDS);
        expect(limits(replayed)).toEqual({ ...limits(config), rules: ['auth.required'] });
      }
    },
  );
});
