import { readFileSync } from 'node:fs';

/** This package's name and version, from the nearest package.json above this module (in the sources and when built). */
export const TOOL: { readonly name: string; readonly version: string } = Object.freeze(readTool());

function readTool(): { name: string; version: string } {
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    const text = readIfPresent(new URL('package.json', dir));
    if (text !== undefined) {
      const json = JSON.parse(text) as { name?: string; version?: string };
      return { name: json.name ?? 'conformance', version: json.version ?? 'unknown' };
    }
    if (dir.pathname === '/') return { name: 'conformance', version: 'unknown' };
  }
}

function readIfPresent(file: URL): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
