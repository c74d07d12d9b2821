import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACT_DIR, readContract, traceabilityData } from '../cli/traceability-doc.ts';
import { main } from '../cli/main.ts';
import { rulesOf, traceabilityGaps } from '../spec/traceability.ts';
import { parseStatements } from '../spec/traceability-statements.ts';
import { schemaProblem } from '../reports/file-schemas.ts';
import { RULE_IDS, RULES } from '../rules/index.ts';
import { TOLERANCES } from '../rules/tolerances.ts';
import { TRACE_TABLES } from '../rules/trace-tables.ts';

const ROOT = join(import.meta.dirname, '..');

describe('traceability: every statement of the contract documents has an entry', async () => {
  const documents = await readContract();

  it('reads both documents, under the names the tables use', () => {
    expect(documents.map((d) => d.name)).toEqual(['management', 'alerts']);
    expect(Object.keys(TRACE_TABLES).sort()).toEqual(['alerts', 'management']);
  });

  for (const doc of documents) {
    it(`${doc.name}: no statement unmapped, no entry stale or changed, every rule and tolerance named exists`, () => {
      const gaps = traceabilityGaps(doc.statements, TRACE_TABLES[doc.name] ?? {}, RULE_IDS, TOLERANCES);
      expect(
        gaps.unmapped.map((s) => `${s.id} (line ${s.line}): ${s.text}`),
        'statements with no entry in rules/traceability-*.ts',
      ).toEqual([]);
      expect(gaps.stale, 'entries whose statement the document no longer has').toEqual([]);
      expect(gaps.changed, 'statements reworded since their entry was written').toEqual([]);
      expect(gaps.invalid).toEqual([]);
    });
  }

  it('a line added to a document shows up as an unmapped statement, and the other ids stay as they were', () => {
    const doc = documents[0]!;
    const text = readFileSync(join(CONTRACT_DIR, doc.file), 'utf8');
    const edited = text
      .replace('| replicas | number |\n', '| replicas | number |\n| warmPool | boolean |\n')
      .replace('## Limits\n', '## Limits\n\nNew sentence of the limits.\n');
    const statements = parseStatements(edited);
    const gaps = traceabilityGaps(statements, TRACE_TABLES[doc.name] ?? {}, RULE_IDS, TOLERANCES);
    expect(gaps.unmapped.map((s) => s.id)).toEqual([
      'management:resources.pipe-scaling.warmpool',
      'management:limits.new-sentence-of-the',
    ]);
    expect(gaps.stale).toEqual([]);
    expect(gaps.changed).toEqual([]);
  });

  it('a reworded statement is flagged as changed, and one that is gone as stale', () => {
    const doc = documents[1]!;
    const text = readFileSync(join(CONTRACT_DIR, doc.file), 'utf8');
    const edited = text
      .replace('| threshold | number | |', '| threshold | integer | |')
      .replace('How the token is obtained: not shown.\n', '');
    const gaps = traceabilityGaps(parseStatements(edited), TRACE_TABLES[doc.name] ?? {}, RULE_IDS, TOLERANCES);
    expect(gaps.changed.map((c) => c.id)).toEqual(['alerts:resources.alert.threshold']);
    expect(gaps.stale).toEqual(['alerts:authentication.how-the-token-is']);
  });

  it('every tolerance quotes RULES.md word for word', () => {
    const rules = readFileSync(join(ROOT, '..', 'shared', 'RULES.md'), 'utf8').replace(/\s+/g, ' ');
    for (const tolerance of TOLERANCES) expect(rules, tolerance.id).toContain(tolerance.quote);
  });

  it('every stated rule enforces at least one statement', () => {
    const judged = new Set(Object.values(TRACE_TABLES).flatMap((table) => Object.values(table).flatMap(rulesOf)));
    expect(RULES.filter((r) => r.basis === 'stated' && !judged.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it(
    'the data validates against schemas/traceability.schema.json, and the committed docs/traceability.json ' +
      'is that data',
    () => {
      const data = JSON.parse(JSON.stringify(traceabilityData(documents))) as unknown;
      expect(schemaProblem('traceability', data)).toBeUndefined();
      expect(JSON.parse(readFileSync(join(ROOT, 'docs', 'traceability.json'), 'utf8'))).toEqual(data);
      expect(
        schemaProblem('traceability', {
          documents: [],
          tolerances: [],
          statements: [{ id: 'a:b', document: 'a', kind: 'field', line: 1, text: 'x', rules: [] }],
        }),
      ).toMatch(/./);
    },
  );

  it('`conformance rules ID` lists the statements the rule enforces', async () => {
    const lines: string[] = [];
    expect(
      await main(['rules', 'usage.grand-total'], {}, { out: (l) => lines.push(l), err: (l) => lines.push(l) }),
    ).toBe(0);
    expect(lines.join('\n')).toContain(
      'management:resources.usage-cost.grandtotalcredits: grandTotalCredits | number | total over the period',
    );
  });
});
