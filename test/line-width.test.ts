import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.ts';

/** The widest line biome.json's formatter writes, and what Biome cannot reach (comments, long strings) is held to. */
const WIDTH = 120;

/** Every tracked source file, but the build's output, the action's committed bundle and vitest's snapshots. */
function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.js', '*.mjs'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\0')
    .filter((path) => path !== '')
    .filter(
      (path) =>
        !path.startsWith('dist/') &&
        !path.startsWith('action/bundle/') &&
        !path.includes('/__snapshots__/') &&
        !path.includes('node_modules/'),
    );
}

describe('line width', () => {
  it(`keeps every line of the tracked sources within ${WIDTH} characters`, () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(0);
    const tooLong: string[] = [];
    for (const path of files) {
      const lines = readFileSync(join(ROOT, path), 'utf8').split('\n');
      lines.forEach((line, i) => {
        const characters = [...line].length;
        if (characters > WIDTH) tooLong.push(`${path}:${i + 1} (${characters} characters)`);
      });
    }
    expect(tooLong, `lines over ${WIDTH} characters:\n${tooLong.join('\n')}`).toEqual([]);
  });
});
