import { basename, resolve } from 'node:path';
import type { RunConfig } from '../settings/config.ts';
import { createRedactor } from '../secrets/redaction.ts';
import { createSecretRegistry, redactedNames } from '../secrets/secret-registry.ts';
import { loadShippedSpecs } from '../spec/prepared-specs.ts';
import { listenToRun, runLink, type RunListener } from '../run/run-channel.ts';
import { startEmbedded, type EmbeddedTarget } from './embedded-target.ts';
import { planText } from './plan-text.ts';
import { ensureReportDir } from './report-dir.ts';
import { checkEvidenceOutputs, writeEvidence } from './evidence-outputs.ts';
import { writeReports } from '../reports/write-reports.ts';
import type { BaselinedRunReport } from '../reports/baseline-comparison.ts';
import { buildRunReport, interruptedReport } from '../reports/run-report.ts';
import { applyJudgedGate } from '../reports/judged-gate.ts';
import { terminalSummary } from '../reports/terminal-summary.ts';
import { RULE_IDS } from '../rules/index.ts';
import { API_LIST } from '../apis/index.ts';
import { targetLine } from './target-line.ts';
import type { Io } from './io.ts';
import {
  INTERRUPT_EXIT_CODES,
  STOPPED_BEFORE_ANY_VERDICT,
  watchInterrupts,
  type InterruptSignal,
} from './interrupts.ts';
import { endProcess } from './end-process.ts';
import { exitCode } from './exit-code.ts';
import { EarlyWorker } from './early-worker.ts';
import { leftChangedWarnings, unknownStateWarnings } from './left-changed.ts';
import type { Collected } from '../run/run-report-types.ts';
import type { ReportIo } from '../reports/write-reports.ts';

/** How a run reports progress, beside its settings and `onReport` (tests shorten the heartbeat). */
export interface RunOptions {
  /** Off a terminal, a progress line after this long without output (DEFAULTS.heartbeatMs). */
  readonly heartbeatMs?: number;
  /** The run's thread, spawned as the command started, to hand the settled settings to (else one is spawned). */
  readonly early?: EarlyWorker;
  /**
   * Sends and judges in this thread, with no run thread of its own: a process that runs the command many times (the
   * project's tests) then loads and compiles the harness once, not once a run (nearly half a short run's CPU).
   */
  readonly inThisThread?: boolean;
}

/**
 * `conformance run` with resolved settings: starts the reference target if none is configured, runs the suites, writes
 * reports; returns the exit code, and hands the finished report to `onReport` (the library's way to it).
 */
export async function runCommand(
  resolved: RunConfig,
  env: Readonly<Record<string, string | undefined>>,
  io: Io,
  onReport?: (report: BaselinedRunReport) => void,
  options: RunOptions = {},
): Promise<number> {
  const specs = await loadShippedSpecs();
  // Modules that only some runs need load on use: the baseline's (Ajv for its schema), the preflight's, the reference
  // target's.
  const baselined = resolved.baseline ? await import('../reports/baseline-run.ts') : undefined;
  const baseline =
    baselined && resolved.baseline
      ? await baselined.loadBaseline(
          resolved.baseline,
          resolved.updateBaseline,
          RULE_IDS,
          specs.operations.map((o) => o.key),
        )
      : undefined;
  if (resolved.dryRun) {
    // The suites (with fast-check and the generators) load on use, so that a run's worker starts before they do.
    const [{ prepareRun }, { SUITES }] = await Promise.all([
      import('../engine/prepare-run.ts'),
      import('../suites/index.ts'),
    ]);
    io.out(planText((await prepareRun({ config: resolved }, specs, SUITES)).plan, resolved));
    return 0;
  }
  await ensureReportDir(resolved.reportDir);
  await checkEvidenceOutputs(resolved);
  io.out(targetLine(resolved));
  const stop = new AbortController();
  // This thread's one redactor: it knows the run's settings' secrets; the worker redacts what it learns of the target
  // (the secrets sent and returned) before anything of it leaves the worker.
  const redactor = createRedactor(redactedNames(specs), createSecretRegistry(resolved));
  const run: RunState = {
    config: resolved,
    redact: redactor.text,
    startedAt: new Date(),
    finishing: false,
  };
  const interrupts = watchInterrupts({
    first(signal) {
      io.err(
        `conformance: ${signal} received: no new requests (only those that put back what the run changed), ` +
          `waiting for the ones in flight (at most --timeout-ms ${resolved.timeoutMs} ms), then writing ` +
          `every report. ${signal} again stops at once.`,
      );
      stop.abort();
    },
    second(signal) {
      if (run.finishing)
        io.err(`conformance: ${signal} again: the reports are being written; the run ends when they are.`);
      else void hardStop(run, signal, { out: io.out, env, redact: run.redact }, io);
    },
  });
  let reference: EmbeddedTarget | undefined;
  let listener: RunListener | undefined;
  let early: EarlyWorker | undefined;
  try {
    // The settings are settled before any thread that sends starts: the embedded target's address once it listens (it
    // runs in this thread, so that it answers while the worker's thread sends), the failures a baseline accepts.
    reference = resolved.reference ? await startEmbedded(resolved) : undefined;
    const knownFailures = baselined && baseline ? baselined.acceptedFailures(baseline, new Date()) : undefined;
    const link = runLink({ config: reference?.config ?? resolved, ...(knownFailures ? { knownFailures } : {}) });
    const heard = listenToRun(link);
    listener = heard;
    run.stopHeard = () => heard.heardStop(HARD_STOP_WAIT_MS);
    // The run's thread (cli/early-worker.ts; the command's, spawned as the process started) is handed the settings, and
    // prepares the run as soon as it has loaded the harness; without it (a run of the sources, or `inThisThread`), the
    // run goes on in this thread. When the preparation fails, the run says nothing more.
    early = options.early?.push(link) ? options.early : options.inThisThread ? undefined : EarlyWorker.start(link);
    const { runSuites } = await import('./suites-run.ts');
    const suites = runSuites(resolved, link, heard, io.out, (text) => run.redact(text), {
      ...(early ? { early } : {}),
      stop: stop.signal,
      planned: () => run.planned,
      ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
      onStarted: (read) => {
        run.soFar = read;
      },
    });
    // Its failure (the run's thread failing) is read where it is awaited; while the run is prepared it must not count
    // as an unhandled rejection, which would end the process before the command could report it.
    suites.catch(() => undefined);
    let config: RunConfig;
    let startedAt: Date;
    try {
      const ready = await Promise.race([
        heard.prepared,
        suites.then(() => Promise.reject(new Error('the run ended before it was prepared'))),
      ]).then((event) => event.run);
      if (ready.plan.warning) io.err(`conformance: ${ready.plan.warning}`);
      run.planned = ready.plan.total;
      if (ready.preflight) io.out(ready.preflight.line);
      config = ready.config;
      run.config = config;
      redactor.secrets.addSettings(config);
      const apis = API_LIST.map((api) => `${api.name} ${config[api.name]?.baseUrl ?? '(not under test)'}`).join('; ');
      io.out(`conformance: seed ${config.seed}; ${apis}${reference ? ' (embedded reference target)' : ''}`);
      startedAt = new Date();
      run.startedAt = startedAt;
    } catch (error) {
      await suites.catch(() => undefined);
      throw error;
    }
    const collected = await suites;
    run.finishing = true;
    if (collected.results.length === 0 && config.rules.length > 0) {
      collected.errors.push(
        'no suite ran: the harness found no suite files or no verdicts (is the installation complete?)',
      );
    }
    const redact = run.redact;
    const reportIo = { out: io.out, env, redact };
    const signal = interrupts.received();
    const built = buildRunReport(config, collected, startedAt, Date.now() - startedAt.getTime());
    const report = signal ? interruptedReport(built, signal) : built;
    const judged = applyJudgedGate(
      baselined && baseline ? await baselined.judgeWithBaseline(report, baseline, startedAt) : report,
      config.requireJudged,
    );
    onReport?.(judged);
    const files = await writeReports(config.reportDir, judged, reportIo);
    await writeEvidence(config, judged, reportIo);
    io.out(redact(terminalSummary(judged, io.style)));
    io.out(`Reports in ${resolve(config.reportDir)}: ${files.map((f) => basename(f)).join(', ')}`);
    for (const warning of leftChangedWarnings(judged.incidents)) io.err(redact(warning));
    if (signal) {
      io.err(
        `conformance: the run was interrupted (${signal}): the reports hold what was judged before it; ` +
          'rules left without evidence are skipped.',
      );
      return INTERRUPT_EXIT_CODES[signal];
    }
    return exitCode(judged);
  } finally {
    interrupts.dispose();
    listener?.close();
    await early?.dispose();
    await reference?.close();
  }
}

/**
 * How long a hard stop waits for the sending thread to tell what it created before the stop: it answers within
 * milliseconds unless its thread is starved or stuck, and a stop at once must not wait on a stuck thread.
 */
const HARD_STOP_WAIT_MS = 1_000;

/** What a second interrupt needs to write the reports of a run stopped at once. */
interface RunState {
  config: RunConfig;
  readonly redact: (text: string) => string;
  startedAt: Date;
  /** Reads the verdicts reached so far, once the suites run. */
  soFar?: () => Collected;
  /** Resolves once the sending thread has told what it created before it saw the stop (or after a short wait). */
  stopHeard?: () => Promise<boolean>;
  /** Set once the suites are done: the reports are being written, and a second interrupt waits for them. */
  finishing: boolean;
  /** Requests the plan sends, once planned (for the heartbeat). */
  planned?: number;
}

/**
 * A second interrupt: writes the reports from the verdicts reached so far, warns about what may be left changed, and
 * ends the process.
 */
async function hardStop(run: RunState, signal: InterruptSignal, reportIo: ReportIo, io: Io): Promise<never> {
  io.err(`conformance: ${signal} again: stopping at once.`);
  const { config } = run;
  try {
    // The first signal's stop may not be answered yet (both signals can be handled in one turn): what was created
    // before it is listed only once the sending thread's answer is heard.
    await run.stopHeard?.();
    const collected = run.soFar?.() ?? {
      results: [],
      suites: [],
      errors: [STOPPED_BEFORE_ANY_VERDICT],
    };
    const report = interruptedReport(
      buildRunReport(config, collected, run.startedAt, Date.now() - run.startedAt.getTime()),
      signal,
    );
    await writeReports(config.reportDir, report, reportIo);
    for (const warning of [...leftChangedWarnings(report.incidents), ...unknownStateWarnings(config)])
      io.err(reportIo.redact(warning));
    io.err(
      `conformance: reports in ${resolve(config.reportDir)} hold the ${report.results.length} verdict(s) ` +
        'reached before the stop.',
    );
  } catch (error) {
    io.err(`conformance: could not write the reports after ${signal}: ${reportIo.redact((error as Error).message)}`);
  }
  return endProcess(INTERRUPT_EXIT_CODES[signal]);
}
