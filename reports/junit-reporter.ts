import { readFile, rm, writeFile } from 'node:fs/promises';
import { JUnitReporter, type TestModule } from 'vitest/node';
import { operationName } from './operation-name.ts';

/**
 * vitest's junit reporter, with the one rewrite of its file that CI viewers need: each operation named as in every
 * other report (`createKey (POST /v1/...)`), and each skipped case's reason as `<skipped message="...">`. vitest's
 * reporter opens its file as the run starts: it writes beside `outputFile` (`.partial`), and `outputFile` is written
 * at the end, only when `keep()` (a run given up before its first request, on a setting, leaves no report).
 */
export class ConformanceJunitReporter extends JUnitReporter {
  private readonly file: string;
  private readonly partial: string;
  private readonly keep: () => boolean;

  constructor(options: { readonly outputFile: string; readonly suiteName: string; readonly keep?: () => boolean }) {
    const { keep, ...junit } = options;
    const partial = `${options.outputFile}.partial`;
    super({ ...junit, outputFile: partial });
    this.file = options.outputFile;
    this.partial = partial;
    this.keep = keep ?? (() => true);
  }

  override async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    await super.onTestRunEnd(testModules);
    const xml = await readFile(this.partial, 'utf8');
    await rm(this.partial, { force: true });
    if (!this.keep()) return;
    const names = new Map<string, string>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.meta().conformanceResult;
        if (result?.operationId) names.set(result.operationId, operationName(result));
      }
    }
    await writeFile(this.file, rewriteJunit(xml, names));
  }
}

/**
 * Rewrites vitest's junit.xml: in each test case's name, an operationId step (any but the last, the rule) becomes its full name
 * (`names`, by operationId); a `<skipped/>` takes the case's last `skip-reason` property as its message.
 */
export function rewriteJunit(xml: string, names: ReadonlyMap<string, string>): string {
  return xml.replace(/<testcase ([^>]*)>([\s\S]*?)<\/testcase>/g, (_all, attributes: string, body: string) => {
    const named = attributes.replace(
      / name="([^"]*)"/,
      (_m, name: string) =>
        ` name="${name
          .split(' &gt; ')
          .map((step, i, all) => (i < all.length - 1 && names.has(step) ? escapeXml(names.get(step)!) : step))
          .join(' &gt; ')}"`,
    );
    const reasons = [...body.matchAll(/<property name="skip-reason" value="([^"]*)">/g)];
    const reason = reasons.at(-1)?.[1];
    const skipped = reason === undefined ? body : body.replace('<skipped/>', `<skipped message="${reason}"/>`);
    return `<testcase ${named}>${skipped}</testcase>`;
  });
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
