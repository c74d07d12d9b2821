import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pipeUpdatePatch } from '../generators/index.ts';
import { type ModelPipe, patchBody } from '../suites/pipes/sequence-pipe-model.ts';
import { sameTable, type TableKey, tableKey } from '../rules/sequence.ts';

/** A relational pipe as the model knows it, with `count` table mappings. */
function relationalPipe(count: number): ModelPipe {
  const present = Array.from({ length: count }, (_, i) => ({
    sourceSchemaName: 'public',
    sourceTable: `t${i}`,
    targetTable: `t${i}`,
  }));
  return {
    id: 'p-1',
    kind: 'relational',
    name: 'ct-pipe',
    settings: {},
    columns: [],
    fieldMappings: [],
    definitionColumns: [],
    tableMappings: { present, absent: [] },
    updated: false,
  };
}

describe("a sequence's relational pipe update", () => {
  it('leaves one mapping the pipe has untouched where it has two or more, whatever the picks', () => {
    const drawn = fc.sample(fc.tuple(fc.integer({ min: 2, max: 5 }), pipeUpdatePatch({ kind: 'relational' })), {
      seed: 20261204,
      numRuns: 300,
    });
    for (const [count, patch] of drawn) {
      const pipe = relationalPipe(count);
      const { body } = patchBody(pipe, patch);
      const relational = (body.source as { relational?: Record<string, unknown> } | undefined)?.relational ?? {};
      const removed = (relational.tableMappingsToRemove ?? []) as TableKey[];
      const added = (relational.tableMappingsToAdd ?? []) as Record<string, unknown>[];
      const untouched = pipe.tableMappings!.present.filter(
        (had) => !removed.some((key) => sameTable(had, key)) && !added.some((one) => sameTable(had, tableKey(one))),
      );
      expect(untouched.length, JSON.stringify(patch)).toBeGreaterThan(0);
    }
  });

  it('still removes and adds again where the picks ask for it (the guard does not leave every update idle)', () => {
    const pipe = relationalPipe(3);
    const seen = { removed: 0, readded: 0 };
    for (const patch of fc.sample(pipeUpdatePatch({ kind: 'relational' }), { seed: 20261204, numRuns: 300 })) {
      const relational = (patchBody(pipe, patch).body.source as { relational?: Record<string, unknown> } | undefined)
        ?.relational;
      if (((relational?.tableMappingsToRemove as unknown[] | undefined) ?? []).length > 0) seen.removed += 1;
      const added = (relational?.tableMappingsToAdd as Record<string, unknown>[] | undefined) ?? [];
      if (added.some((one) => pipe.tableMappings!.present.some((had) => sameTable(had, tableKey(one)))))
        seen.readded += 1;
    }
    expect(seen.removed).toBeGreaterThan(50);
    expect(seen.readded).toBeGreaterThan(20);
  });
});
