import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { main } from '../cli/main.ts';
import { DEFAULTS } from '../core/defaults.ts';
import type { RunReport } from '../core/run-report.ts';
import { startReference, type ReferenceTarget } from '../reference/server.ts';
import { highWaterMark, sampleRss } from './peak-rss.ts';
import { startProxy, type Proxy, type RecordedRequest } from './proxy.ts';
import { rawFloor, type FloorResult } from './raw-floor.ts';
import { engineFloor } from './engine-floor.ts';

/** One `conformance` run inside this process, measured. */
interface MeasuredRun {
  readonly code: number;
  /** When the run began, on the performance clock (the recording proxy stamps requests on the same clock). */
  readonly startedAt: number;
  readonly wallMs: number;
  readonly suitesMs: number;
  readonly peakRss: number;
  readonly report: RunReport;
}

/** The issue's targets: a default run within this factor of its raw floor, a run with 100 ms responses under this many ms. */
const TARGET_FLOOR_RATIO = 2;
const TARGET_SLOW_MS = 30_000;

/**
 * `npm run bench`: measures a default run against the embedded reference target (wall time, requests, requests per
 * second, peak RSS), the same requests sent with bare undici at the same concurrency (the floor), where the run's time
 * goes, what vitest alone costs (the engine floor), and runs against a reference target whose every response is delayed. Prints figures; never fails on timing.
 */
export async function runBench(argv: readonly string[], out: (line: string) => void): Promise<number> {
  const { values } = parseArgs({ args: [...argv], options: { seed: { type: 'string' }, 'delay-ms': { type: 'string' }, runs: { type: 'string' } }, strict: true });
  const seed = values.seed ?? '1';
  const delayMs = Number(values['delay-ms'] ?? 100);
  const runs = values.runs ?? String(DEFAULTS.runs);
  const args = ['--seed', seed, '--runs', runs];
  out(`bench: node ${process.version}, seed ${seed}, ${values.runs ? `--runs ${runs}` : 'default settings'} (runs ${runs}, concurrency ${DEFAULTS.concurrency}, no rate limit)`);

  const plain = await measure(args, {});
  const hwm = await highWaterMark();

  const recordedTarget = await startReference();
  const recording = await Promise.all([startProxy(recordedTarget.managementUrl, { record: true }), startProxy(recordedTarget.alertsUrl, { record: true })]);
  const recorded = await measure(args, targetEnv(recordedTarget, recording));
  await Promise.all(recording.map((p) => p.close()));
  const probes = recording.flatMap((p) => p.recorded).filter((r) => !(r.method === 'GET' && r.path === '/')).sort((a, b) => a.at - b.at);
  const floor = await rawFloor(probes, DEFAULTS.concurrency);
  const delayedFloor = await rawFloorDelayed(recordedTarget, probes, delayMs);
  await recordedTarget.close();
  const engineMs = await engineFloor();

  const delayedTarget = await startReference();
  const delaying = await Promise.all([startProxy(delayedTarget.managementUrl, { delayMs }), startProxy(delayedTarget.alertsUrl, { delayMs })]);
  const delayed = await measure(args, targetEnv(delayedTarget, delaying));
  await Promise.all(delaying.map((p) => p.close()));
  await delayedTarget.close();

  const slowMode = await measure([...args, '--reference-mode', 'slow'], {});

  const rps = (requests: number, ms: number): string => (requests / (ms / 1000)).toFixed(0);
  const mib = (bytes: number | undefined): string => (bytes === undefined ? 'n/a' : `${(bytes / 2 ** 20).toFixed(0)} MiB`);
  const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  const requests = plain.report.stats.requests;
  out('');
  out('Default run, embedded reference target:');
  out(`  wall time (whole command, in process)   ${s(plain.wallMs)}   (exit code ${plain.code}, outcome ${plain.report.outcome})`);
  out(`  run time (findings.json durationMs)     ${s(plain.report.durationMs)}`);
  out(`  time in suite files (vitest modules)    ${s(plain.suitesMs)}`);
  out(`  requests sent                           ${requests}`);
  out(`  requests per second                     ${rps(requests, plain.wallMs)} (wall), ${rps(requests, plain.suitesMs)} (in suite files)`);
  out(`  peak RSS, sampled every 50 ms           ${mib(plain.peakRss)}   (VmHWM after the run: ${mib(hwm)}; worker threads included)`);
  out('');
  out(`Raw floor: the same ${floor.requests} requests (recorded from a run with the same seed, ${recorded.report.stats.requests} requests) sent with undici request, concurrency ${DEFAULTS.concurrency}, nothing judged:`);
  out(`  wall time                               ${s(floor.wallMs)}   (${rps(floor.requests, floor.wallMs)} requests per second)`);
  out(`  ratio run / floor                       ${(plain.wallMs / floor.wallMs).toFixed(1)}x on wall time, ${(plain.suitesMs / floor.wallMs).toFixed(1)}x on time in suite files (target: within ${TARGET_FLOOR_RATIO}x)`);
  const firstProbe = probes[0]!.at - recorded.startedAt;
  const phaseMs = probes.at(-1)!.at - probes[0]!.at;
  out(`Where the time of that run went (the recorded run: ${s(recorded.wallMs)}; request arrival times at the recording proxy):`);
  out(`  before the first probe                  ${s(firstProbe)}   (settings, plan, reference target, vitest, its worker, suite modules, session set-up)`);
  out(`  request phase, first probe to last      ${s(phaseMs)}   (${probes.length} requests; ${(phaseMs / floor.wallMs).toFixed(1)}x the raw floor)`);
  out(`  after the last probe                    ${s(recorded.wallMs - firstProbe - phaseMs)}   (last response, verdicts, reports)`);
  out(`Engine floor: vitest running one trivial test with the run's pool settings (one worker thread, no isolation):`);
  out(`  wall time                               ${s(engineMs)}   (${(engineMs / floor.wallMs).toFixed(1)}x the raw floor on its own)`);
  out('');
  out(`Every response delayed by ${delayMs} ms (a delaying proxy in front of the reference target; the proxy hop is included):`);
  out(`  wall time                               ${s(delayed.wallMs)}   (${delayed.report.stats.requests} requests, exit code ${delayed.code}; target: under ${s(TARGET_SLOW_MS)})`);
  out(`  raw floor through the same proxy        ${s(delayedFloor.wallMs)}   (the ${delayedFloor.requests} recorded requests, concurrency ${DEFAULTS.concurrency}; ratio ${(delayed.wallMs / delayedFloor.wallMs).toFixed(1)}x)`);
  out(`Every response delayed by 200 ms (--reference-mode slow, embedded target):`);
  out(`  wall time                               ${s(slowMode.wallMs)}   (${slowMode.report.stats.requests} requests, exit code ${slowMode.code})`);
  return [plain, recorded, delayed, slowMode].every((run) => run.code === 0) ? 0 : 1;
}

/** Runs `conformance` in this process with a fresh report directory, sampling RSS. */
async function measure(args: readonly string[], env: Readonly<Record<string, string>>): Promise<MeasuredRun> {
  const reportDir = await mkdtemp(join(tmpdir(), 'conformance-bench-'));
  const lines: string[] = [];
  const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
  try {
    const sampler = sampleRss(50);
    const started = performance.now();
    const code = await main([...args, '--report-dir', reportDir], env, io);
    const wallMs = performance.now() - started;
    const peakRss = sampler.stop();
    if (code === 2) throw new Error(`conformance ${args.join(' ')} could not run:\n${lines.join('\n')}`);
    const report = JSON.parse(await readFile(join(reportDir, 'findings.json'), 'utf8')) as RunReport;
    const suitesMs = lines.reduce((sum, line) => sum + Number(/ \(\d+ requests, (\d+) ms\)$/.exec(line)?.[1] ?? 0), 0);
    return { code, startedAt: started, wallMs, suitesMs, peakRss, report };
  } finally {
    await rm(reportDir, { recursive: true, force: true });
  }
}

/** The raw floor again, each request answered `delayMs` late: the recorded requests sent through delaying proxies in front of the same target. */
async function rawFloorDelayed(target: ReferenceTarget, probes: readonly RecordedRequest[], delayMs: number): Promise<FloorResult> {
  const proxies = await Promise.all([target.managementUrl, target.alertsUrl].map((url) => startProxy(url, { delayMs })));
  try {
    const via = new Map([target.managementUrl, target.alertsUrl].map((url, i) => [new URL(url).origin, proxies[i]!.url]));
    return await rawFloor(probes.map((probe) => ({ ...probe, origin: via.get(probe.origin) ?? probe.origin })), DEFAULTS.concurrency);
  } finally {
    await Promise.all(proxies.map((proxy) => proxy.close()));
  }
}

/** The settings that point a run at a started reference target, through proxies (management first, then alerts). */
function targetEnv(target: ReferenceTarget, [management, alerts]: readonly Proxy[]): Record<string, string> {
  return {
    MANAGEMENT_BASE_URL: management!.url,
    MANAGEMENT_KEY_ID: target.managementKeyId,
    MANAGEMENT_KEY_SECRET: target.managementKeySecret,
    ORGANIZATION_ID: target.organizationId,
    SERVICE_ID: target.serviceId,
    BACKUP_ID: target.backupId,
    ALERTS_BASE_URL: alerts!.url,
    ALERTS_TOKEN: target.alertsToken,
  };
}
