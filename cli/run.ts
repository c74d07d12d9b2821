import { basename, resolve } from 'node:path';
import { withRuns, withTargets, type RunConfig } from '../core/config.ts';
import { HarnessError } from '../core/errors.ts';
import { createRedactor } from '../core/redaction.ts';
import { loadSpecs, operationById } from '../core/spec.ts';
import { SUITES } from '../suites/index.ts';
import { planRun } from '../suites/support/plan.ts';
import { planText } from './plan-text.ts';
import { ensureReportDir } from './report-dir.ts';
import { startReference } from '../reference/server.ts';
import { writeReports } from '../reports/write-reports.ts';
import { acceptedFailures, judgeWithBaseline, loadBaseline } from '../reports/baseline-run.ts';
import type { BaselinedRunReport } from '../reports/baseline-comparison.ts';
import { buildRunReport } from '../reports/run-report.ts';
import { applyJudgedGate } from '../reports/judged-gate.ts';
import { terminalSummary } from '../reports/terminal-summary.ts';
import { RULE_IDS } from '../rules/index.ts';
import { REDACTED_NAMES } from '../rules/secrets.ts';
import { preflight } from './preflight.ts';
import { targetLine } from './target-line.ts';
import type { Io } from './io.ts';

/**
 * `conformance run` with resolved settings: starts the reference target if none is configured, runs the suites, writes reports;
 * returns the exit code, and hands the finished report to `onReport` (the library's way to it).
 */
export async function runCommand(resolved: RunConfig, env: Readonly<Record<string, string | undefined>>, io: Io, onReport?: (report: BaselinedRunReport) => void): Promise<number> {
  let config = resolved;
  const specs = await loadSpecs();
  const baseline = config.baseline ? await loadBaseline(config.baseline, config.updateBaseline, RULE_IDS, specs.operations.map((o) => o.key)) : undefined;
  const plan = planRun(config, SUITES.map((suite) => suite()), (operationId) => operationById(specs, operationId));
  if (config.dryRun) {
    io.out(planText(plan, config));
    return 0;
  }
  await ensureReportDir(config.reportDir);
  io.out(targetLine(config));
  if (plan.warning) io.err(`conformance: ${plan.warning}`);
  config = withRuns(config, plan.runs);
  const reference = config.reference ? await startEmbedded(config) : undefined;
  try {
    if (reference) config = withTargets(config, reference.management, reference.alerts);
    if (!reference) io.out((await preflight(config, specs)).line);
    const secrets = [config.management?.keySecret, config.alerts?.token].filter((s): s is string => Boolean(s));
    const redactor = createRedactor(REDACTED_NAMES, secrets);
    io.out(`conformance: seed ${config.seed}; management ${config.management?.baseUrl ?? '(not under test)'}; alerts ${config.alerts?.baseUrl ?? '(not under test)'}${reference ? ' (embedded reference target)' : ''}`);
    const startedAt = new Date();
    const knownFailures = baseline ? acceptedFailures(baseline, startedAt) : undefined;
    // vitest loads only for a run that sends requests: `--dry-run` and a bad baseline answer without it.
    const { runSuites } = await import('./suites-run.ts');
    const collected = await runSuites({ config, specs, ...(knownFailures ? { knownFailures } : {}) }, io.out, redactor.text);
    if (collected.results.length === 0 && config.rules.length > 0) {
      collected.errors.push('no suite ran: the harness found no suite files or no verdicts (is the installation complete?)');
    }
    const report = buildRunReport(config, collected, startedAt, Date.now() - startedAt.getTime());
    const judged = applyJudgedGate(baseline ? await judgeWithBaseline(report, baseline, startedAt) : report, config.requireJudged);
    onReport?.(judged);
    const files = await writeReports(config.reportDir, judged, { out: io.out, env, redact: redactor.text });
    io.out(redactor.text(terminalSummary(judged, io.style)));
    io.out(`Reports in ${resolve(config.reportDir)}: ${[...files.map((f) => basename(f)), 'junit.xml'].join(', ')}`);
    return judged.outcome === 'passed' ? 0 : judged.outcome === 'failed' ? 1 : 2;
  } finally {
    await reference?.close();
  }
}

async function startEmbedded(config: RunConfig) {
  try {
    const target = await startReference({ faults: config.reference?.faults ?? [], modes: config.reference?.modes ?? [] });
    return {
      management: { baseUrl: target.managementUrl, keyId: target.managementKeyId, keySecret: target.managementKeySecret, organizationId: target.organizationId, serviceId: target.serviceId, backupId: target.backupId },
      alerts: { baseUrl: target.alertsUrl, token: target.alertsToken },
      close: () => target.close(),
    };
  } catch (error) {
    throw new HarnessError('REFERENCE_FAILED', `The embedded reference target did not start: ${(error as Error).message}`, { cause: error });
  }
}
