import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HarnessError } from '../core/errors.ts';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import { operationsOf, type Rule } from '../core/rule.ts';
import { loadSpecs, type Operation } from '../core/spec.ts';
import { FAULTS } from '../reference/faults.ts';
import { RULES } from '../rules/index.ts';
import { ruleAnchor } from '../reports/rule-catalogue.ts';
import type { Io } from './io.ts';

/** Where the rendered catalogue is committed. */
export const RULES_DOC_FILE = join(PACKAGE_ROOT, 'docs', 'rules.md');

/** What the catalogue says of a reference fault: its name and what it does. */
export interface FaultSummary {
  readonly name: string;
  readonly description: string;
  readonly breaks: readonly string[];
}

/** Renders docs/rules.md from the rule table, the specs' operations and the reference faults; the same input gives the same text. */
export function renderRulesDoc(rules: readonly Rule[], operations: readonly Operation[], faults: readonly FaultSummary[]): string {
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
    '- Operations:',
    ...keys.map((key) => `  - \`${key}\``),
    '',
    "Example failures, from the reference target's faults:",
    '',
    ...(breaking.length === 0 ? ['- none yet: no fault of the reference target breaks this rule.'] : []),
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

/** `conformance docs [--check]`: writes docs/rules.md (or `file`), or with `--check` returns 1 when it is out of date. */
export async function runDocs(argv: readonly string[], io: Io, file: string = RULES_DOC_FILE): Promise<number> {
  let check: boolean;
  try {
    check = parseArgs({ args: [...argv], options: { check: { type: 'boolean' } }, strict: true, allowPositionals: false }).values.check === true;
  } catch (error) {
    throw new HarnessError('CONFIG_INVALID', `${(error as Error).message}. \`conformance docs\` takes only --check.`, { cause: error });
  }
  const rendered = await currentRulesDoc();
  if (!check) {
    await writeFile(file, rendered);
    io.out(`conformance: wrote ${file}`);
    return 0;
  }
  const committed = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (committed === rendered) {
    io.out('conformance: docs/rules.md is up to date');
    return 0;
  }
  io.err('conformance: docs/rules.md is out of date with the rule table: run npm run docs');
  return 1;
}
