import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INPUTS } from './fresh-build.ts';
import { ROOT } from './support/cli.ts';

describe("the tests' check that dist/ is as new as the sources", () => {
  it('watches every folder the build compiles into dist/ (an edit there alone builds again)', () => {
    const compiled = readdirSync(join(ROOT, 'dist'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'prepared')
      .map((entry) => entry.name);
    expect(compiled).toContain('engine');
    expect(compiled.filter((folder) => !INPUTS.includes(folder))).toEqual([]);
  });
});
