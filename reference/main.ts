import { pathToFileURL } from 'node:url';
import { FAULTS } from './faults.ts';
import { MODES } from './modes.ts';
import { startReference, type ReferenceTarget } from './server.ts';

/** Where `runReference` writes, and how it learns that it should stop. */
export interface ReferenceIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Resolves when the target should stop; by default on SIGINT or SIGTERM. */
  readonly stopped: () => Promise<void>;
}

/** The parsed arguments of `conformance reference`. */
interface ReferenceArgs {
  readonly list: boolean;
  readonly faults: readonly string[];
  readonly modes: readonly string[];
  readonly host?: string;
  readonly managementPort?: number;
  readonly alertsPort?: number;
}

const USAGE =
  'usage: conformance reference [--fault NAME]... [--mode NAME]... [--management-port N] [--alerts-port N] ' +
  '[--host HOST] [--list]';

const PROCESS_IO: ReferenceIo = Object.freeze<ReferenceIo>({
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stopped: () =>
    new Promise((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    }),
});

/**
 * `conformance reference`: starts the reference target, prints its settings as `export` lines, runs until stopped;
 * returns the exit code.
 */
export async function runReference(argv: readonly string[], io: ReferenceIo = PROCESS_IO): Promise<number> {
  const parsed = parseArgs(argv);
  if (typeof parsed === 'string') {
    io.err(`conformance reference: ${parsed}. ${USAGE}`);
    return 2;
  }
  if (parsed.list) {
    for (const line of listing()) io.out(line);
    return 0;
  }
  let target: ReferenceTarget;
  try {
    target = await startReference(parsed);
  } catch (error) {
    io.err(`conformance reference: ${(error as Error).message}. Run \`conformance reference --list\` for the names.`);
    return 2;
  }
  for (const line of exportLines(target)) io.out(line);
  const switched = [...target.faults.map((f) => `fault ${f}`), ...target.modes.map((m) => `mode ${m}`)];
  io.err(`reference target running${switched.length > 0 ? ` with ${switched.join(', ')}` : ''}; press Ctrl-C to stop.`);
  await io.stopped();
  await target.close();
  return 0;
}

/** The settings of a running target as shell `export` lines, in the variables the harness reads. */
export function exportLines(target: ReferenceTarget): string[] {
  return target.apis
    .flatMap((api) => Object.entries({ ...api.settings, ...api.suggested }))
    .map(([name, value]) => `export ${name}=${value}`);
}

function listing(): string[] {
  const width = Math.max(...FAULTS.map((f) => f.name.length), ...MODES.map((m) => m.name.length)) + 2;
  return [
    'Faults (each breaks the rules listed):',
    ...FAULTS.map((f) => `  ${f.name.padEnd(width)}${f.description} [${f.breaks.join(', ')}]`),
    '',
    'Modes (unusual but correct):',
    ...MODES.map((m) => `  ${m.name.padEnd(width)}${m.description}`),
  ];
}

function parseArgs(argv: readonly string[]): ReferenceArgs | string {
  const faults: string[] = [];
  const modes: string[] = [];
  let list = false;
  let host: string | undefined;
  let managementPort: number | undefined;
  let alertsPort: number | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith('--') && eq > 0 ? arg.slice(eq + 1) : undefined;
    if (flag === '--list') {
      list = true;
      continue;
    }
    if (!['--fault', '--mode', '--management-port', '--alerts-port', '--host'].includes(flag)) {
      return `unknown argument ${JSON.stringify(arg)}`;
    }
    const value = inline ?? argv[(index += 1)];
    if (value === undefined || value === '') return `${flag} needs a value`;
    if (flag === '--fault') faults.push(value);
    else if (flag === '--mode') modes.push(value);
    else if (flag === '--host') host = value;
    else {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65_535)
        return `${flag} must be a port number from 0 to 65535, not ${JSON.stringify(value)}`;
      if (flag === '--management-port') managementPort = port;
      else alertsPort = port;
    }
  }
  return { list, faults, modes, host, managementPort, alertsPort };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runReference(process.argv.slice(2));
}
