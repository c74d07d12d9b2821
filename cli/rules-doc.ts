import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { HarnessError } from '../core/errors.ts';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import { operationsOf, type Rule } from '../rule-model/rule.ts';
import { loadSpecs, type Operation } from '../spec/spec.ts';
import { FAULTS } from '../reference/faults.ts';
import { RULES } from '../rules/index.ts';
import { ruleAnchor } from '../reports/rule-catalogue.ts';
import type { Io } from './io.ts';
import {
  readContract,
  renderTraceabilityDoc,
  renderTraceabilityJson,
  TRACEABILITY_DOC_FILE,
  TRACEABILITY_JSON_FILE,
  traceabilityData,
} from './traceability-doc.ts';

/** Where the rendered catalogue is committed. */
export const RULES_DOC_FILE = join(PACKAGE_ROOT, 'docs', 'rules.md');

/** What the catalogue says of a reference fault: its name and what it does. */
export interface FaultSummary {
  readonly name: string;
  readonly description: string;
  readonly breaks: readonly string[];
}

/**
 * Renders docs/rules.md from the rule table, the specs' operations and the reference faults; the same input gives the
 * same text.
 */
export function renderRulesDoc(
  rules: readonly Rule[],
  operations: readonly Operation[],
  faults: readonly FaultSummary[],
): string {
  const lines = [
    '# Rules',
    '',
    '<!-- Generated from rules/, openapi/ and reference/faults.ts by `npm run docs`; do not edit by hand. -->',
    '',
    "Every check of the harness enforces one rule below and reports it under the rule's id. A rule is **stated** (a",
    'document of the contract says it) or **inferred** (the documents are silent, and every user would expect it).',
    'Select rules with `--rules ID,...`, leave some out with `--skip-rules ID,...`. Each rule names the faults of the',
    'embedded reference target that break it: `npx conformance --reference-fault NAME` shows that failure.',
    '',
    '| id | basis | title |',
    '|---|---|---|',
    ...rules.map((rule) => `| [\`${rule.id}\`](#${ruleAnchor(rule.id)}) | ${rule.basis} | ${cell(rule.title)} |`),
  ];
  for (const rule of rules) lines.push('', ...ruleSection(rule, operations, faults));
  return `${lines.join('\n')}\n`;
}

function ruleSection(rule: Rule, operations: readonly Operation[], faults: readonly FaultSummary[]): string[] {
  const keys = operationsOf(rule, operations).map((op) => op.key);
  const breaking = faults.filter((fault) => fault.breaks.includes(rule.id));
  return [
    `## \`${rule.id}\``,
    '',
    `**${rule.title}** (${rule.basis})`,
    '',
    `> ${rule.sentence}`,
    '',
    `- Probed by: ${rule.probedBy}.`,
    ...(rule.notProbedYet === undefined ? [] : [`- Not judged yet: ${rule.notProbedYet}.`]),
    '- Operations:',
    ...keys.map((key) => `  - \`${key}\``),
    '',
    "Example failures, from the reference target's faults:",
    '',
    ...(breaking.length === 0 ? ['- none: no fault of the reference target breaks this rule.'] : []),
    ...breaking.map(
      (fault) =>
        `- \`${fault.name}\`: ${fault.description}${
          fault.breaks.length > 1
            ? ` (also breaks ${fault.breaks
                .filter((id) => id !== rule.id)
                .map((id) => `\`${id}\``)
                .join(', ')})`
            : ''
        }.`,
    ),
  ];
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/** The catalogue as the current rule table, specs and fault table render it. */
export async function currentRulesDoc(): Promise<string> {
  const specs = await loadSpecs(undefined, { validate: true });
  return renderRulesDoc(RULES, specs.operations, FAULTS);
}

/** The generated documents: docs/rules.md, and the traceability matrix as Markdown and JSON. */
export interface DocFiles {
  readonly rules: string;
  readonly traceability: string;
  readonly traceabilityJson: string;
}

const DOC_FILES: DocFiles = {
  rules: RULES_DOC_FILE,
  traceability: TRACEABILITY_DOC_FILE,
  traceabilityJson: TRACEABILITY_JSON_FILE,
};

/** Each generated document's file and its text as the current tables render it. */
async function renderedDocs(files: DocFiles): Promise<[string, string][]> {
  const data = traceabilityData(await readContract());
  return [
    [files.rules, await currentRulesDoc()],
    [files.traceability, renderTraceabilityDoc(data)],
    [files.traceabilityJson, renderTraceabilityJson(data)],
  ];
}

/**
 * `conformance docs [--check]`: writes docs/rules.md and docs/traceability.{md,json}, or with `--check` returns 1 when
 * one is out of date.
 */
export async function runDocs(argv: readonly string[], io: Io, files: DocFiles = DOC_FILES): Promise<number> {
  let check: boolean;
  try {
    check =
      parseArgs({ args: [...argv], options: { check: { type: 'boolean' } }, strict: true, allowPositionals: false })
        .values.check === true;
  } catch (error) {
    throw new HarnessError('CONFIG_INVALID', `${(error as Error).message}. \`conformance docs\` takes only --check.`, {
      cause: error,
    });
  }
  const docs = await renderedDocs(files);
  if (!check) {
    for (const [file, rendered] of docs) {
      await writeFile(file, rendered);
      io.out(`conformance: wrote ${file}`);
    }
    return 0;
  }
  let stale = 0;
  for (const [file, rendered] of docs) {
    const committed = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (committed === rendered) io.out(`conformance: docs/${basename(file)} is up to date`);
    else {
      io.err(`conformance: docs/${basename(file)} is out of date with the rule table: run npm run docs`);
      stale += 1;
    }
  }
  return stale === 0 ? 0 : 1;
}
