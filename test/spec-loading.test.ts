import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHarnessError } from '../core/errors.ts';
import { namedOperations } from '../rule-model/rule.ts';
import { loadSpecs, SPEC_FILES } from '../spec/spec.ts';
import { RULES } from '../rules/index.ts';
import { SUITES } from '../suites/index.ts';

describe('loadSpecs', () => {
  it(
    'validates both specs; their operations are the ones ' + 'the suites probe, and include every one a rule names',
    async () => {
      const specs = await loadSpecs(SPEC_FILES, { validate: true });
      const operationIds = specs.operations.map((op) => op.operationId).sort();
      expect(operationIds).toEqual([...new Set(SUITES.flatMap((suite) => suite().operations))].sort());
      expect(operationIds).toEqual(
        expect.arrayContaining([
          'changeServiceState',
          'createKey',
          'createPipe',
          'getBackup',
          'getPipeSettings',
          'getUsageCost',
          'listAlerts',
          'updateAlert',
          'updatePipe',
        ]),
      );
      expect(
        RULES.flatMap((rule) => namedOperations(rule.operations)).filter((id) => !operationIds.includes(id)),
      ).toEqual([]);
      expect(specs.operations.find((op) => op.operationId === 'createKey')?.key).toBe(
        'POST /v1/organizations/{organizationId}/keys',
      );
    },
  );

  it('stops with SPEC_INVALID and the parser message when a spec is broken', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spec-'));
    const broken = join(dir, 'management.yaml');
    const text = await readFile(SPEC_FILES.management, 'utf8');
    await writeFile(broken, text.replace(/^openapi: .*$/m, 'openapi: 3.1.0\nservers:\n  - urll: nowhere'));
    expect((await loadSpecs({ ...SPEC_FILES, management: broken })).operations).toHaveLength(
      (await loadSpecs()).operations.length,
    );
    const error = await loadSpecs({ ...SPEC_FILES, management: broken }, { validate: true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isHarnessError(error) && error.code).toBe('SPEC_INVALID');
    expect((error as Error).message).toContain(broken);
    expect((error as Error).message).toMatch(/url/);
  });

  it('stops with SPEC_INVALID, validating or not, when a spec cannot be read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spec-'));
    const unreadable = join(dir, 'alerts.yaml');
    await writeFile(unreadable, 'openapi: 3.1.0\npaths: [unclosed\n');
    for (const validate of [false, true]) {
      const error = await loadSpecs({ ...SPEC_FILES, alerts: unreadable }, { validate }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isHarnessError(error) && error.code).toBe('SPEC_INVALID');
      expect((error as Error).message).toContain(unreadable);
    }
  });
});
