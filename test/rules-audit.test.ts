import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { concerns, defineRules, namedOperations, operationsOf, partsOn, type Rule } from '../rule-model/rule.ts';
import { type ApiName, loadSpecs, SPEC_FILES } from '../spec/spec.ts';
import { FAULTS } from '../reference/faults.ts';
import { RULE_IDS as REFERENCE_RULE_IDS } from '../reference/rule-id.ts';
import { RULES, RULE_IDS } from '../rules/index.ts';
import { OTHER_TENANT_PARTS, PATH_SCOPE_PARTS } from '../rules/access.ts';
import { ROOT } from './support/cli.ts';

/** One row of the catalogue's table in ../shared/RULES.md. */
interface CatalogueRow {
  readonly id: string;
  readonly basis: string;
  readonly mustHold: string;
  readonly probedBy: string;
}

function catalogue(): CatalogueRow[] {
  const text = readFileSync(join(ROOT, '..', 'shared', 'RULES.md'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [id, basis, mustHold, probedBy] = line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim());
      return {
        id: (id ?? '').replaceAll('`', ''),
        basis: basis ?? '',
        mustHold: mustHold ?? '',
        probedBy: probedBy ?? '',
      };
    });
}

/** The catalogue writes a clause ("every ... is ..."); the rule a sentence ("Every ... is ...."). */
const clause = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1).replace(/\.$/, '');

describe('the rule table is the catalogue of RULES.md', () => {
  const rows = catalogue();
  const byId = new Map(RULES.map((rule) => [rule.id, rule]));

  it('lists the ids of RULES.md, in its order', () => {
    expect(rows.length).toBeGreaterThan(0);
    expect(RULE_IDS).toEqual(rows.map((row) => row.id));
  });

  it('the reference target names the same ids', () => {
    expect([...REFERENCE_RULE_IDS]).toEqual([...RULE_IDS]);
  });

  it.each(rows)('$id: basis, sentence and probe as RULES.md writes them', (row) => {
    const rule = byId.get(row.id);
    expect(rule?.title.trim()).toBeTruthy();
    expect(rule?.basis).toBe(row.basis);
    expect(clause(rule?.sentence ?? '')).toBe(clause(row.mustHold));
    expect(rule?.probedBy).toBe(row.probedBy);
  });

  it('every rule concerns at least one operation, and only operations of the specs', async () => {
    const specs = await loadSpecs();
    const operationIds = new Set(specs.operations.map((op) => op.operationId));
    const unknown = RULES.flatMap((rule) =>
      [rule.operations, ...(rule.parts ?? []).flatMap((part) => (part.operations ? [part.operations] : []))]
        .flatMap(namedOperations)
        .filter((id) => !operationIds.has(id))
        .map((id) => `${rule.id}: ${id}`),
    );
    expect(unknown).toEqual([]);
    expect(RULES.filter((rule) => operationsOf(rule, specs.operations).length === 0).map((rule) => rule.id)).toEqual(
      [],
    );
  });

  it(
    'an operation added to a spec is judged by every general rule, by the envelope rules only on an API with that ' +
      'envelope, and by the scope rules when its path names an organization',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'added-operation-'));
      const added = (file: string, path: string): string => {
        const paths = [
          'paths:',
          `  ${path}:`,
          '    get:',
          '      operationId: readAdded',
          '      responses:',
          "        '200':",
          '          description: Added.',
          '',
        ];
        return readFileSync(file, 'utf8').replace(/^paths:\n/m, paths.join('\n'));
      };
      const management = join(dir, 'management.yaml');
      const alerts = join(dir, 'alerts.yaml');
      writeFileSync(management, added(SPEC_FILES.management, '/v1/organizations/{organizationId}/added'));
      writeFileSync(alerts, added(SPEC_FILES.alerts, '/api/v2/added'));
      const general = [
        'response.content-type',
        'response.schema',
        'secrets.absent',
        'request.valid-accepted',
        'errors.client-not-server',
        'auth.required',
        'transport.answers',
      ];
      const envelope = [
        'envelope.shape',
        'envelope.status-matches-http',
        'envelope.request-id-v4',
        'envelope.request-id-unique',
      ];
      const judging = async (files: Record<ApiName, string>, api: ApiName): Promise<string[]> => {
        const operation = (await loadSpecs(files)).operations.find(
          (op) => op.operationId === 'readAdded' && op.api === api,
        )!;
        return RULES.filter((rule) => concerns(rule, operation)).map((rule) =>
          rule.id.startsWith('access.') ? `${rule.id}: ${partsOn(rule, operation).join(', ')}` : rule.id,
        );
      };
      // Scope-checked as every operation whose path names an organization: refused under another one.
      const scope = [
        `access.path-scoped: ${PATH_SCOPE_PARTS.organization}`,
        `access.other-tenant: ${OTHER_TENANT_PARTS.refused}`,
      ];
      expect((await judging({ ...SPEC_FILES, management }, 'management')).sort()).toEqual(
        [...envelope, ...general, ...scope].sort(),
      );
      expect((await judging({ ...SPEC_FILES, alerts }, 'alerts')).sort()).toEqual([...general].sort());
    },
  );
});

describe('the fault table covers the rule table', () => {
  it('every rule is broken by at least one fault, but a rule no probe judges yet, which no fault may claim', () => {
    const broken = new Set<string>(FAULTS.flatMap((fault) => fault.breaks));
    const unprobed = RULES.filter((rule) => rule.notProbedYet !== undefined).map((rule) => rule.id);
    expect(RULE_IDS.filter((id) => !broken.has(id) && !unprobed.includes(id))).toEqual([]);
    expect(unprobed.filter((id) => broken.has(id))).toEqual([]);
  });

  it('a rule no probe judges yet is reported not judged, with its reason, on every operation', async () => {
    const { verdict } = await import('../engine/verdict.ts');
    const { resolveConfig } = await import('../settings/config.ts');
    const createPipe = (await loadSpecs()).operations.find((op) => op.operationId === 'createPipe')!;
    for (const rule of RULES.filter((r) => r.notProbedYet !== undefined)) {
      const config = resolveConfig([], {}, RULE_IDS);
      const ledger = { tallies: {}, coverage: {} } as unknown as Parameters<typeof verdict>[1];
      const result = verdict(config, ledger, [], rule, { ...createPipe, key: 'POST /x' });
      expect(result.outcome, rule.id).toBe('skipped');
      expect(result.skipKind, rule.id).toBe('not-judged');
      expect(result.message, rule.id).toBe(`not judged: ${rule.notProbedYet}`);
    }
  });

  it('a rule with a part no probe judges yet is never passed, and names that part', async () => {
    const { verdict } = await import('../engine/verdict.ts');
    const { resolveConfig } = await import('../settings/config.ts');
    const { operations } = await loadSpecs();
    for (const rule of RULES.filter((r) => r.parts?.some((part) => part.notProbedYet !== undefined))) {
      const config = resolveConfig([], {}, RULE_IDS);
      const judged = rule.parts!.filter((part) => part.notProbedYet === undefined).map((part) => part.name);
      const parts = Object.fromEntries(judged.map((part) => [part, 3]));
      const unprobed = rule.parts!.filter((part) => part.notProbedYet !== undefined).map((part) => part.name);
      // An operation where every part no probe judges yet is needed.
      const operation = operationsOf(rule, operations).find((op) =>
        unprobed.every((part) => partsOn(rule, op).includes(part)),
      );
      expect(operation, rule.id).toBeDefined();
      const ledger = {
        tallies: { 'POST /x': { [rule.id]: { checks: 3, parts, violations: 0, findings: [] } } },
        coverage: {},
      } as unknown as Parameters<typeof verdict>[1];
      const result = verdict(config, ledger, [], rule, { ...operation!, key: 'POST /x' });
      expect(result.outcome, rule.id).toBe('skipped');
      for (const part of rule.parts!.filter((p) => p.notProbedYet !== undefined))
        expect(result.message, rule.id).toContain(`part "${part.name}" is not probed yet: ${part.notProbedYet}`);
    }
  });

  it(
    'a fault declares further verdicts (also) only of rules it breaks: always ones on operations beyond its ' +
      'own, and those only some draws show (sometimes) anywhere',
    () => {
      for (const fault of FAULTS) {
        for (const { rule, on, sometimes } of fault.also ?? []) {
          expect(fault.breaks, fault.name).toContain(rule);
          if (!sometimes)
            expect(
              on.filter((op) => fault.on.includes(op)),
              fault.name,
            ).toEqual([]);
        }
      }
    },
  );

  it('every fault breaks at least one rule, each named once, and only known ones', () => {
    const known = new Set(RULE_IDS);
    for (const fault of FAULTS) {
      expect(fault.breaks.length, fault.name).toBeGreaterThan(0);
      expect(new Set(fault.breaks).size, fault.name).toBe(fault.breaks.length);
      expect(
        fault.breaks.filter((id) => !known.has(id)),
        fault.name,
      ).toEqual([]);
    }
  });

  it('fault names are unique and every fault says what it does', () => {
    const names = FAULTS.map((fault) => fault.name);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
    expect(FAULTS.filter((fault) => !fault.description.trim()).map((fault) => fault.name)).toEqual([]);
  });
});

describe('defineRules guards the table', () => {
  const base: Rule = RULES[0]!;

  it('refuses a duplicate id', () => {
    expect(() => defineRules([base, { ...base, title: 'another title' }])).toThrow(
      `The rule table lists ${base.id} twice.`,
    );
  });

  it('refuses a rule without a sentence', () => {
    expect(() => defineRules([{ ...base, sentence: '  ' }])).toThrow(`Rule ${base.id} has no sentence.`);
  });

  it('refuses a rule without a title, a probe, or an operation', () => {
    expect(() => defineRules([{ ...base, title: '' }])).toThrow(`Rule ${base.id} has no title.`);
    expect(() => defineRules([{ ...base, probedBy: '' }])).toThrow(`Rule ${base.id} has no probedBy.`);
    expect(() => defineRules([{ ...base, operations: [] }])).toThrow(`Rule ${base.id} concerns no operation.`);
  });

  it('freezes the table and its rules', () => {
    const table = defineRules([base]);
    expect(Object.isFrozen(table)).toBe(true);
    expect(Object.isFrozen(table[0])).toBe(true);
  });
});
