import { describe, expect, it } from 'vitest';
import { deferredRun } from '../cli/deferred-run.ts';
import { runConformance } from '../cli/run-conformance.ts';

/** The error a call throws, as `message [code]`. */
async function thrown(call: () => unknown): Promise<string> {
  try {
    await call();
  } catch (error) {
    const { message, code } = error as { message: string; code?: string };
    return `${message} [${code}]`;
  }
  throw new Error('it did not throw');
}

describe('the vitest entry', () => {
  it('refuses a bad setting with the same HarnessError as runConformance', async () => {
    for (const settings of [
      { runs: 0 },
      { allow: ['everything' as 'read'] },
      { managementUrl: 'http://127.0.0.1:1' },
      { colour: true } as object,
    ]) {
      const fromEntry = await thrown(() => deferredRun(settings));
      expect(fromEntry).toMatch(/\[CONFIG_(INVALID|MISSING)\]$/);
      expect(fromEntry).toBe(await thrown(() => runConformance(settings)));
    }
    expect(await thrown(() => deferredRun({ runs: 'abc' as unknown as number }))).toBe(
      'runs must be a whole number from 1 to 10000, not "abc". [CONFIG_INVALID]',
    );
    expect(await thrown(() => deferredRun({ allow: ['everything' as 'read'] }))).toBe(
      'allow takes a list of read, write, disruptive; ["everything"] is not one. [CONFIG_INVALID]',
    );
    expect(await thrown(() => deferredRun({ managementUrl: 'http://127.0.0.1:1' }))).toMatch(
      /^managementKeyId is not set: .* \[CONFIG_MISSING\]$/,
    );
  });

  it('refuses, naming it, a setting that has no meaning in a vitest test file', async () => {
    expect(await thrown(() => deferredRun({ reportDir: 'out' }))).toBe(
      "conformanceSuites: the setting reportDir has no meaning in a vitest test file: the tests' reports " +
        "are your vitest reporters' (junit, json, ...). Leave it out. [CONFIG_INVALID]",
    );
    expect(await thrown(() => deferredRun({ dryRun: true }))).toMatch(
      /^conformanceSuites: the setting dryRun has no meaning/,
    );
  });

  it('resolves the settings and loads the specs before the tests are declared, keeping the shard', async () => {
    const run = await deferredRun({ runs: 3, seed: 5, shard: { index: 2, count: 3 } });
    expect(run.config).toMatchObject({
      runs: 3,
      seed: 5,
      shard: { index: 2, count: 3 },
      reference: { faults: [], modes: [] },
    });
    expect(run.specs.operations.map((operation) => operation.operationId)).toContain('updateAlert');
  });
});
