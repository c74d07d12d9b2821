/**
 * Masks what differs between two runs of the same seed in a rendered report (the terminal summary, summary.md,
 * junit.xml, results.sarif), so that a file snapshot of it changes only when the rendering or the verdicts do.
 * Every mask names what it hides (`<management-port>`, `<uuid-3>`, ...), so a snapshot still reads as the file.
 */

/** The facts of one run that its reports print and the next run of the same seed does not share. */
export interface RunFacts {
  /** The embedded target's base URLs, each on an ephemeral port. */
  readonly managementUrl: string;
  readonly alertsUrl: string;
  /** The ids the embedded target made for the run's organization, service and backup. */
  readonly organizationId: string;
  readonly serviceId: string;
  readonly backupId?: string;
  /** When the run started (findings.json's `startedAt`). */
  readonly startedAt: string;
  /** The temporary folder the reports were written to. */
  readonly reportDir: string;
  /** The package's version (changes at each release, not with the output). */
  readonly toolVersion: string;
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
/** The embedded target's alert and dashboard ids: 24 hex digits, drawn at random. */
const HEX24 = /(?<![0-9a-f])[0-9a-f]{24}(?![0-9a-f])/g;
const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\b/g;
/** Instants this near the run's start are read off the clock (a key "expiring within a day"), not drawn by the seed. */
const CLOCK_WINDOW_MS = 3 * 24 * 3_600_000;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces each distinct match of `pattern` by `<name-N>`, N counting from 1 in order of first appearance. */
function numbered(text: string, pattern: RegExp, name: string, named: ReadonlyMap<string, string>): string {
  const seen = new Map<string, string>(named);
  return text.replace(pattern, (match) => {
    let mask = seen.get(match);
    if (mask === undefined) {
      mask = `<${name}-${seen.size - named.size + 1}>`;
      seen.set(match, mask);
    }
    return mask;
  });
}

/**
 * The text with the run's facts masked: URLs keep their scheme and host (`http://127.0.0.1:<alerts-port>`); ids the
 * target drew are numbered in order of first appearance, so that one id shown twice stays one placeholder; instants
 * read off the clock and durations are masked; the rest is left as rendered.
 */
export function maskVolatile(text: string, facts: RunFacts): string {
  const port = (url: string, name: string): [string, string] => [url, url.replace(/:\d+$/, `:<${name}-port>`)];
  let masked = text;
  for (const [from, to] of [
    port(facts.managementUrl, 'management'),
    port(facts.alertsUrl, 'alerts'),
    [facts.reportDir, '<report-dir>'],
    [facts.startedAt, '<started-at>'],
  ] as const)
    masked = masked.replaceAll(from, to);
  const ids = new Map<string, string>([
    [facts.organizationId, '<organization-id>'],
    [facts.serviceId, '<service-id>'],
    ...(facts.backupId ? [[facts.backupId, '<backup-id>'] as const] : []),
  ]);
  masked = numbered(masked, UUID, 'uuid', ids);
  masked = numbered(masked, HEX24, 'hex-id', new Map());
  const started = Date.parse(facts.startedAt);
  masked = masked.replace(ISO_INSTANT, (instant) =>
    Math.abs(Date.parse(instant) - started) <= CLOCK_WINDOW_MS ? '<clock-time>' : instant,
  );
  return (
    masked
      // The run's wall time: junit.xml's `time` attributes, the summaries' "N requests in 1.9 s".
      .replace(/\btime="\d+(?:\.\d+)?"/g, 'time="<seconds>"')
      .replace(/\b(requests? in )\d+(?:\.\d+)? (m?s)\b/g, '$1<duration>')
      // The SARIF driver's version (not the SARIF format's own `"version": "2.1.0"`).
      .replace(
        new RegExp(`("name": "contract-conformance",\\s*"version": )"${escaped(facts.toolVersion)}"`),
        '$1"<tool-version>"',
      )
      .replaceAll(`"semanticVersion": "${facts.toolVersion}"`, '"semanticVersion": "<tool-version>"')
      // A key create's hashData, made of a fresh key id and secret on every run (a target refuses a repeated one).
      .replace(/(\\?"key(?:Id|Secret)Hash\\?":\s*\\?")[0-9a-f]{64}/g, '$1<fresh-hash>')
      .replace(/(\\?"keyIdSuffix\\?":\s*\\?")[0-9a-f]{4}/g, '$1<fresh-suffix>')
  );
}

/** A suite's verdict line as the run prints it when the suite is judged: `✗ keys: 17 passed, 1 failed, ...`. */
const SUITE_LINE = /^[✓✗?] [\w-]+: \d+ passed, /;
/** The line printed after a few seconds without output off a terminal (its counts and seconds vary). */
const HEARTBEAT_LINE = /^conformance: \d+(?:\/\d+ planned)? requests sent /;

/**
 * What the command printed, as printed, but for what depends on timing: the heartbeat lines (printed only when a run
 * is slow) are dropped, and the suites' verdict lines, printed as each suite ends (the suites run at once), are sorted.
 */
export function stableStdout(stdout: string): string {
  const lines = stdout.split('\n').filter((line) => !HEARTBEAT_LINE.test(line));
  const suites = lines.filter((line) => SUITE_LINE.test(line));
  const first = lines.findIndex((line) => SUITE_LINE.test(line));
  const rest = lines.filter((line) => !SUITE_LINE.test(line));
  if (first < 0) return rest.join('\n');
  rest.splice(first, 0, ...suites.sort());
  return rest.join('\n');
}
