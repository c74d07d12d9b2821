import { readFile, writeFile } from 'node:fs/promises';
import { JUnitReporter, type TestModule } from 'vitest/node';
import { operationName } from './operation-name.ts';

/**
 * vitest's junit reporter, with the one rewrite of its file that CI viewers need: each operation named as in every
 * other report (`createKey (POST /v1/...)`), and each skipped case's reason as `<skipped message="...">`.
 */
export class ConformanceJunitReporter extends JUnitReporter {
  private readonly file: string;

  constructor(options: { readonly outputFile: string; readonly suiteName: string }) {
    super({ ...options });
    this.file = options.outputFile;
  }

  override async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    await super.onTestRunEnd(testModules);
    const names = new Map<string, string>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.meta().conformanceResult;
        if (result?.operationId) names.set(result.operationId, operationName(result));
      }
    }
    await writeFile(this.file, rewriteJunit(await readFile(this.file, 'utf8'), names));
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
