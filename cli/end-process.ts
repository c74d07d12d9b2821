/** Ends the process with `code` once what was written to stdout and stderr has gone out. */
export async function endProcess(code: number): Promise<never> {
  await Promise.all(
    [process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))),
  );
  process.exit(code);
}
