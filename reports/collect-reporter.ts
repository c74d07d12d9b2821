import type { Reporter, TestModule } from 'vitest/node';
import type { RuleResult } from '../core/finding.ts';
import type { SuiteReport } from '../core/run-report.ts';

/** What the suites of a run produced, read off vitest's test tree. */
export interface Collected {
  readonly results: RuleResult[];
  readonly suites: SuiteReport[];
  readonly errors: string[];
}

/** A vitest reporter that collects verdicts and suite reports from test metadata, and prints progress lines. */
export class CollectReporter implements Reporter {
  readonly collected: Collected = { results: [], suites: [], errors: [] };
  private readonly write: (line: string) => void;
  private readonly redact: (text: string) => string;

  constructor(write: (line: string) => void, redact: (text: string) => string) {
    this.write = write;
    this.redact = redact;
  }

  onTestModuleEnd(module: TestModule): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const test of module.children.allTests()) {
      const outcome = test.meta().conformanceResult?.outcome;
      if (outcome === 'passed') passed += 1;
      else if (outcome === 'failed') failed += 1;
      else skipped += 1;
    }
    const requests = [...module.children.allSuites()].reduce((n, s) => n + (s.meta().conformanceSuite?.requests ?? 0), 0);
    const name = module.moduleId.split('/').pop()?.replace(/\.suite\.ts$/, '') ?? module.moduleId;
    this.write(`${failed > 0 ? '✗' : '✓'} ${name}: ${passed} passed, ${failed} failed, ${skipped} skipped (${requests} requests, ${Math.round(module.diagnostic().duration)} ms)`);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string; stack?: string }>): void {
    const { results, suites, errors } = this.collected;
    for (const module of modules) {
      for (const error of module.errors()) errors.push(this.redact(`${module.moduleId}: ${error.message}`));
      for (const suite of module.children.allSuites()) {
        const report = suite.meta().conformanceSuite;
        if (report) suites.push(report);
        for (const error of suite.errors()) errors.push(this.redact(`${suite.fullName}: ${error.stack ?? error.message}`));
      }
      for (const test of module.children.allTests()) {
        const result = test.meta().conformanceResult;
        if (result) results.push(result);
        else errors.push(this.redact(`${test.fullName}: no verdict (${test.result().state}): ${test.result().errors?.map((e) => e.message).join('; ') ?? ''}`));
      }
    }
    for (const error of unhandledErrors) errors.push(this.redact(error.stack ?? error.message ?? String(error)));
  }
}
