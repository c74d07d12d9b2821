import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HarnessError } from '../core/errors.ts';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import { type Tolerance, type TracedStatement, type TraceTable, traceStatements } from '../spec/traceability.ts';
import { parseStatements, type Statement } from '../spec/traceability-statements.ts';
import { ruleAnchor } from '../reports/rule-catalogue.ts';
import { RULES } from '../rules/index.ts';
import { TOLERANCES } from '../rules/tolerances.ts';
import { TRACE_TABLES } from '../rules/trace-tables.ts';

/** Where the contract documents are: `../shared/seeds/` beside the checkout. */
export const CONTRACT_DIR = join(PACKAGE_ROOT, '..', 'shared', 'seeds');

/** Where the rendered traceability matrix is committed, for people and for machines. */
export const TRACEABILITY_DOC_FILE = join(PACKAGE_ROOT, 'docs', 'traceability.md');
export const TRACEABILITY_JSON_FILE = join(PACKAGE_ROOT, 'docs', 'traceability.json');

/** One contract document, read and parsed. */
export interface ContractDocument {
  readonly name: string;
  readonly file: string;
  readonly sha256: string;
  readonly statements: readonly Statement[];
}

/** What docs/traceability.json holds (schemas/traceability.schema.json). */
export interface TraceabilityData {
  readonly documents: readonly {
    readonly name: string;
    readonly file: string;
    readonly sha256: string;
    readonly statements: number;
    readonly judged: number;
    readonly tolerated: number;
    readonly notTestable: number;
    readonly unmapped: number;
  }[];
  readonly tolerances: readonly Tolerance[];
  readonly statements: readonly TracedStatement[];
}

/** Reads and parses every contract document of a folder, in file-name order. */
export async function readContract(dir: string = CONTRACT_DIR): Promise<ContractDocument[]> {
  const files = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    throw new HarnessError(
      'SPEC_INVALID',
      `cannot read the contract documents in ${dir} (${error.code}): the traceability matrix is built from them`,
      { cause: error },
    );
  });
  const texts = await Promise.all(
    files
      .filter((f) => f.endsWith('.txt'))
      .sort()
      .map(async (file) => ({ file, text: await readFile(join(dir, file), 'utf8') })),
  );
  return texts.map(({ file, text }) => {
    const statements = parseStatements(text);
    return {
      name: statements[0]?.document ?? file,
      file,
      sha256: createHash('sha256').update(text).digest('hex'),
      statements,
    };
  });
}

/** The traceability matrix of the documents against their tables. */
export function traceabilityData(
  documents: readonly ContractDocument[],
  tables: Readonly<Record<string, TraceTable>> = TRACE_TABLES,
): TraceabilityData {
  const traced = documents.map((doc) => traceStatements(doc.statements, tables[doc.name] ?? {}));
  return {
    documents: documents.map((doc, index) => {
      const statements = traced[index] ?? [];
      return {
        name: doc.name,
        file: doc.file,
        sha256: doc.sha256,
        statements: doc.statements.length,
        judged: statements.filter((s) => s.rules.length > 0).length,
        tolerated: statements.filter((s) => s.rules.length === 0 && s.tolerance !== undefined).length,
        notTestable: statements.filter((s) => s.notTestable !== undefined).length,
        unmapped: doc.statements.length - statements.length,
      };
    }),
    tolerances: TOLERANCES,
    statements: traced.flat(),
  };
}

/** Renders docs/traceability.md: per document, each statement and what judges it; then, per rule, what it enforces. */
export function renderTraceabilityDoc(data: TraceabilityData): string {
  const lines = [
    '# Traceability',
    '',
    '<!-- Generated from ../shared/seeds/, rules/traceability-*.ts and rules/tolerances.ts by `npm run ' +
      'docs`; do not edit by hand. -->',
    '',
    'Every statement of the two contract documents (each field row, numbered rule, limit, authentication bullet,',
    'state-table row, each "not shown", each sentence) has an id made from where it stands in its document, and maps',
    'to the rules that judge it, or to the tolerance of RULES.md that says why nothing is judged, or to why it cannot',
    'be tested. `conformance rules ID` lists the statements a rule enforces; `docs/traceability.json` holds the same,',
    'for machines (`schemas/traceability.schema.json`).',
    '',
    '| document | statements | judged by rules | tolerated (RULES.md) | not testable |',
    '|---|---|---|---|---|',
    ...data.documents.map(
      (d) => `| \`${d.file}\` (${d.name}) | ${d.statements} | ${d.judged} | ${d.tolerated} | ${d.notTestable} |`,
    ),
  ];
  for (const doc of data.documents) {
    lines.push('', `## ${doc.name}`, '', '| id | line | statement | judged by | otherwise |', '|---|---|---|---|---|');
    for (const s of data.statements.filter((st) => st.document === doc.name)) {
      const rules = s.rules.map((r) => `[\`${r}\`](rules.md#${ruleAnchor(r)})`).join(', ');
      const otherwise = [
        s.tolerance ? `tolerance [\`${s.tolerance}\`](#tolerances)` : '',
        s.notTestable ? `not testable: ${s.notTestable}` : '',
        s.note ?? '',
      ]
        .filter(Boolean)
        .join('; ');
      lines.push(`| \`${s.id}\` | ${s.line} | ${cell(s.text)} | ${rules} | ${cell(otherwise)} |`);
    }
  }
  lines.push('', '## By rule', '');
  for (const rule of RULES) {
    const ids = data.statements.filter((s) => s.rules.includes(rule.id)).map((s) => `\`${s.id}\``);
    lines.push(
      `### \`${rule.id}\``,
      '',
      ids.length > 0 ? ids.join(', ') : 'no statement: the rule is inferred, the documents are silent.',
      '',
    );
  }
  lines.push(
    '## Tolerances',
    '',
    '| id | RULES.md says |',
    '|---|---|',
    ...data.tolerances.map((t) => `| \`${t.id}\` | ${cell(t.quote)} |`),
  );
  return `${lines.join('\n')}\n`;
}

/** docs/traceability.json's text: the data, two-space indented. */
export function renderTraceabilityJson(data: TraceabilityData): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
