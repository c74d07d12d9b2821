import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * After a run stopped at once, before its end wrote `junit.xml` (vitest's reporter writes `junit.xml.partial` until then):
 * writes one error test case that says so, in place of a previous run's file, and removes the partial one.
 */
export async function writeInterruptedJunit(reportDir: string, signal: string): Promise<void> {
  const file = join(reportDir, 'junit.xml');
  await rm(`${file}.partial`, { force: true });
  const message = `the run was stopped at once by a second ${signal}: its verdicts are incomplete (findings.json holds those reached)`;
  await writeFile(
    file,
    [
      '<?xml version="1.0" encoding="UTF-8" ?>',
      '<testsuites name="conformance" tests="1" failures="0" errors="1">',
      '  <testsuite name="conformance" tests="1" failures="0" errors="1" skipped="0">',
      '    <testcase classname="conformance" name="run">',
      `      <error message="${message}" type="Interrupted"/>`,
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n'),
  );
}

/** Ends the process with `code` once what was written to stdout and stderr has gone out. */
export async function endProcess(code: number): Promise<never> {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))));
  process.exit(code);
}
