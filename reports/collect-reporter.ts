import type { Reporter, ReportedHookContext, TestCase, TestModule, TestSuite, Vitest } from 'vitest/node';
import type { RuleResult } from '../core/finding.ts';
import type { SuiteReport } from '../core/run-report.ts';
import { progressLine, type ProgressLine } from './progress-line.ts';

/** What the suites of a run produced, read off vitest's test tree. */
export interface Collected {
  readonly results: RuleResult[];
  readonly suites: SuiteReport[];
  readonly errors: string[];
}

/**
 * A vitest reporter that collects verdicts and suite reports from test metadata, and prints a line per suite
 * (with a status line rewritten in place when vitest's output is an interactive terminal).
 */
export class CollectReporter implements Reporter {
  readonly collected: Collected = { results: [], suites: [], errors: [] };
  private readonly write: (line: string) => void;
  private readonly redact: (text: string) => string;
  private progress: ProgressLine;
  private progressTimer: NodeJS.Timeout | undefined;
  private status = { suite: '', step: '', done: 0, total: 0, failed: 0, since: Date.now() };

  constructor(write: (line: string) => void, redact: (text: string) => string) {
    this.write = write;
    this.redact = redact;
    this.progress = progressLine({ line: write });
  }

  onInit(vitest: Vitest): void {
    const stream = vitest.logger.outputStream as NodeJS.WriteStream;
    if (!stream.isTTY) return;
    this.progress = progressLine({ line: this.write, raw: (text) => stream.write(text), columns: stream.columns });
    this.progressTimer = setInterval(() => this.showStatus(), 1_000).unref();
  }

  onTestModuleCollected(module: TestModule): void {
    this.status.total += [...module.children.allTests()].length;
  }

  onTestModuleStart(module: TestModule): void {
    this.status.suite = suiteName(module);
    this.status.step = 'starting';
    this.showStatus();
  }

  onHookStart(hook: ReportedHookContext): void {
    if (hook.name === 'beforeAll') {
      this.status.step = 'sending probes';
      this.showStatus();
    }
  }

  onTestCaseResult(test: TestCase): void {
    this.status.done += 1;
    if (test.meta().conformanceResult?.outcome === 'failed') this.status.failed += 1;
    this.status.step = `${test.parent.type === 'suite' ? `${test.parent.name} › ` : ''}${test.name}`;
    this.showStatus();
  }

  onTestSuiteResult(suite: TestSuite): void {
    const report = suite.meta().conformanceSuite;
    if (!report) return;
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const test of suite.children.allTests()) {
      const outcome = test.meta().conformanceResult?.outcome;
      if (outcome === 'passed') passed += 1;
      else if (outcome === 'failed') failed += 1;
      else skipped += 1;
    }
    this.progress.print(
      `${failed > 0 ? '✗' : '✓'} ${report.suite}: ${passed} passed, ${failed} failed, ${skipped} skipped ` +
        `(${report.requests} requests)`,
    );
  }

  onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<{ message?: string; stack?: string }>,
  ): void {
    clearInterval(this.progressTimer);
    this.progress.clear();
    const { results, suites, errors } = this.collected;
    for (const module of modules) {
      for (const error of module.errors()) errors.push(this.redact(`${module.moduleId}: ${error.message}`));
      for (const suite of module.children.allSuites()) {
        const report = suite.meta().conformanceSuite;
        if (report) suites.push(report);
        for (const error of suite.errors())
          errors.push(this.redact(`${suite.fullName}: ${error.stack ?? error.message}`));
      }
      for (const test of module.children.allTests()) {
        const result = test.meta().conformanceResult;
        if (result) results.push(result);
        else
          errors.push(
            this.redact(
              `${test.fullName}: no verdict (${test.result().state}): ${
                test
                  .result()
                  .errors?.map((e) => e.message)
                  .join('; ') ?? ''
              }`,
            ),
          );
      }
    }
    for (const error of unhandledErrors) errors.push(this.redact(error.stack ?? error.message ?? String(error)));
  }

  private showStatus(): void {
    const { suite, step, done, total, failed, since } = this.status;
    if (!suite) return;
    this.progress.status(
      `${suite}: ${step}  [${done}/${total} verdicts, ${failed} failed, ${Math.round((Date.now() - since) / 1000)} s]`,
    );
  }
}

function suiteName(module: TestModule): string {
  return (
    module.moduleId
      .split('/')
      .pop()
      ?.replace(/\.suite\.[jt]s$/, '') ?? module.moduleId
  );
}
