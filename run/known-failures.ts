/**
 * The failures a run's baseline accepts, handed to the suites so that a test failing only with these is reported
 * skipped ("known failure") and junit.xml agrees with the exit code. Under `--update-baseline` every failure
 * is accepted, since the run writes them all to the baseline.
 */
export type KnownFailures =
  | { readonly every: true }
  | {
      readonly entries: readonly {
        readonly rule: string;
        readonly operation: string;
        readonly reason: string;
        readonly expires?: string;
      }[];
    };

/**
 * Why the baseline accepts a failure of `rule` on `operation` (the `METHOD /path` key), or undefined when it does not.
 */
export function knownFailureReason(
  known: KnownFailures | undefined,
  rule: string,
  operation: string,
): string | undefined {
  if (!known) return undefined;
  if ('every' in known) return 'written to the baseline by --update-baseline';
  const entry = known.entries.find((e) => e.rule === rule && e.operation === operation);
  return entry && `${entry.reason}${entry.expires ? ` (until ${entry.expires})` : ''}`;
}
