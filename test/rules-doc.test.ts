import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentRulesDoc, renderRulesDoc, runDocs, RULES_DOC_FILE } from '../cli/rules-doc.ts';
import { operationsOf } from '../rule-model/rule.ts';
import { loadSpecs } from '../spec/spec.ts';
import { FAULTS } from '../reference/faults.ts';
import { RULES } from '../rules/index.ts';
import { main } from '../cli/main.ts';

describe('docs/rules.md is rendered from the rule table', () => {
  it('the committed file is what the table renders (else: run npm run docs)', async () => {
    const committed = await readFile(RULES_DOC_FILE, 'utf8').catch(() => '');
    const rendered = await currentRulesDoc();
    expect(committed === rendered, 'docs/rules.md is out of date with the rule table: run npm run docs').toBe(true);
  });

  it('has one section per rule, in table order, each with its sentence, operations and a breaking fault', async () => {
    const specs = await loadSpecs();
    const text = renderRulesDoc(RULES, specs.operations, FAULTS);
    const headings = [...text.matchAll(/^## `([^`]+)`$/gm)].map((m) => m[1]);
    expect(headings).toEqual(RULES.map((rule) => rule.id));
    const sections = text.split(/^## /m).slice(1);
    expect(sections).toHaveLength(RULES.length);
    RULES.forEach((rule, index) => {
      const section = sections[index] ?? '';
      expect(section).toContain(`> ${rule.sentence}`);
      expect(section).toContain(`**${rule.title}** (${rule.basis})`);
      expect(section).toContain(`- Probed by: ${rule.probedBy}.`);
      const operations = operationsOf(rule, specs.operations);
      expect(operations.length, rule.id).toBeGreaterThan(0);
      for (const op of operations) expect(section).toContain(`  - \`${op.key}\``);
      expect(section.match(/^ {2}- `/gm)?.length, rule.id).toBe(operations.length);
      for (const fault of FAULTS.filter((f) => (f.breaks as readonly string[]).includes(rule.id)))
        expect(section).toContain(`- \`${fault.name}\`: ${fault.description}`);
      if (rule.notProbedYet === undefined) expect(section).not.toContain('- none: no fault');
      else expect(section).toContain(`- Not judged yet: ${rule.notProbedYet}.`);
    });
  });

  it('renders the same text twice, with no date in it', async () => {
    const first = await currentRulesDoc();
    expect(await currentRulesDoc()).toBe(first);
    expect(first).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('`conformance docs --check` exits 0 on the committed file', async () => {
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    expect(await main(['docs', '--check'], {}, io)).toBe(0);
    expect(lines).toEqual([
      'conformance: docs/rules.md is up to date',
      'conformance: docs/traceability.md is up to date',
      'conformance: docs/traceability.json is up to date',
    ]);
  });

  it('`conformance docs --check` exits 1 on a stale file, and `conformance docs` brings it up to date', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conformance-docs-'));
    const file = join(dir, 'rules.md');
    const files = {
      rules: file,
      traceability: join(dir, 'traceability.md'),
      traceabilityJson: join(dir, 'traceability.json'),
    };
    await writeFile(file, '# Rules\n');
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    expect(await runDocs(['--check'], io, files)).toBe(1);
    expect(lines).toEqual([
      'conformance: docs/rules.md is out of date with the rule table: run npm run docs',
      'conformance: docs/traceability.md is out of date with the rule table: run npm run docs',
      'conformance: docs/traceability.json is out of date with the rule table: run npm run docs',
    ]);
    expect(await runDocs([], io, files)).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(await currentRulesDoc());
    expect(await runDocs(['--check'], io, files)).toBe(0);
  });

  it('`conformance docs` refuses an unknown flag with exit 2', async () => {
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    expect(await main(['docs', '--bogus'], {}, io)).toBe(2);
    expect(lines.join('\n')).toMatch(
      /unknown flag --bogus for `conformance docs`\. Run `conformance help docs` for its flags\. \[CONFIG_INVALID\]$/,
    );
  });
});
