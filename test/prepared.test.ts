import { createRequire } from 'node:module';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { operationLocations, specLines } from '../spec/operation-locations.ts';
import { loadShippedSpecs, prepareSpecs, shippedSpecLines } from '../spec/prepared-specs.ts';
import { loadSpecs, type Operation } from '../spec/spec.ts';
import {
  createValidators,
  preparedValidatorsCode,
  type PreparedValidators,
  type Validator,
} from '../spec/validators.ts';

type Json = Record<string, unknown>;

/** Evaluates generated CommonJS code with this package's `require` (the code requires ajv-formats). */
function evaluate(code: string): PreparedValidators {
  const exported: Record<string, unknown> = {};
  new Function('require', 'exports', code)(createRequire(import.meta.url), exported);
  return exported as PreparedValidators;
}

/** An Ajv that refuses to compile: proves that every validator of a run came from the prepared code. */
const NO_COMPILER = {
  compile() {
    throw new Error('compiled at run time');
  },
} as unknown as Ajv2020;

/** A value that tries to satisfy the schema: required properties, first branches, enum values, formats. */
function instance(schema: Json | undefined, depth = 0): unknown {
  if (!schema || depth > 8) return null;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const branch = (schema.oneOf ?? schema.anyOf ?? schema.allOf) as Json[] | undefined;
  if (branch?.[0])
    return instance({ ...branch[0], ...(schema.properties ? { properties: schema.properties } : {}) }, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      return Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, instance(sub, depth + 1)]));
    }
    case 'array':
      return [instance(schema.items as Json, depth + 1)];
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'string':
      return schema.format === 'uuid'
        ? '3f1c2a4e-9b7d-4c1e-8a2b-5d6e7f809a1b'
        : schema.format === 'date-time'
          ? '2024-01-02T03:04:05Z'
          : schema.format === 'date'
            ? '2024-01-02'
            : 'text';
    default:
      return null;
  }
}

/**
 * The instance and its neighbours: each property dropped, set to a wrong type, an odd string, an extra property; plus
 * values of every type.
 */
function samples(schema: object): unknown[] {
  const valid = instance(schema as Json);
  const out: unknown[] = [valid, null, 'text', 42, 1.5, true, [], {}, [valid]];
  if (valid && typeof valid === 'object' && !Array.isArray(valid)) {
    for (const key of Object.keys(valid)) {
      const { [key]: _dropped, ...without } = valid as Json;
      out.push(
        without,
        { ...valid, [key]: 'not-a-uuid' },
        { ...valid, [key]: -1 },
        { ...valid, [key]: [] },
        { ...valid, [key]: {} },
      );
    }
    out.push({ ...valid, unexpected: 1 });
  }
  return out;
}

/**
 * Every validator a run asks for (`response.schema` checks each response's top-level properties), as [label, schema,
 * validator from the set].
 */
function everyValidator(
  operations: readonly Operation[],
  validators: ReturnType<typeof createValidators>,
): Array<[string, object, Validator]> {
  const out: Array<[string, object, Validator]> = [];
  for (const op of operations) {
    for (const [status, schema] of Object.entries(op.responseSchemas)) {
      for (const [property, sub] of Object.entries(
        (schema as { properties?: Record<string, object> }).properties ?? {},
      )) {
        out.push([`${op.key} ${status} ${property}`, sub, validators.response(op, status, property)!]);
      }
    }
  }
  return out;
}

describe('the validators prepared at build time', () => {
  it('cover every schema of the specs and give the same errors as validators compiled at run time', async () => {
    const specs = await loadSpecs();
    const { code, count } = preparedValidatorsCode(specs.operations);
    const prepared = evaluate(code);
    expect(Object.keys(prepared)).toHaveLength(count);
    const standalone = everyValidator(specs.operations, createValidators(prepared, NO_COMPILER));
    const compiled = everyValidator(specs.operations, createValidators({}));
    expect(standalone.length).toBeGreaterThan(20);
    let valid = 0;
    let invalid = 0;
    for (const [i, [label, schema, validate]] of standalone.entries()) {
      for (const value of samples(schema)) {
        const errors = validate(value);
        expect(errors, `${label}: ${JSON.stringify(value)}`).toEqual(compiled[i]![2](value));
        if (errors.length === 0) valid += 1;
        else invalid += 1;
      }
    }
    // Both outcomes were compared, many times each.
    expect(valid).toBeGreaterThan(50);
    expect(invalid).toBeGreaterThan(500);
  });

  it('are compiled at run time for a schema other than the one they were generated for, or none', async () => {
    const specs = await loadSpecs();
    const prepared = evaluate(preparedValidatorsCode(specs.operations).code);
    const op = specs.operations.find((o) => o.operationId === 'createKey')!;
    const changed: Operation = {
      ...op,
      responseSchemas: {
        ...op.responseSchemas,
        '200': {
          type: 'object',
          properties: { result: { type: 'object', required: ['only'], properties: { only: { type: 'string' } } } },
        },
      },
    };
    expect(() => createValidators(prepared, NO_COMPILER).response(changed, '200', 'result')).toThrow(
      'compiled at run time',
    );
    expect(createValidators(prepared).response(changed, '200', 'result')!({})).toEqual([
      expect.objectContaining({ keyword: 'required', params: { missingProperty: 'only' } }),
    ]);
    // A request body is validated by tests only: not prepared, compiled on use.
    expect(() => createValidators(prepared, NO_COMPILER).request(op)).toThrow('compiled at run time');
    expect(createValidators(prepared).request(op)!({})).not.toEqual([]);
  });
});

describe('the specs prepared at build time', () => {
  it('are used when made from the spec files as they are, and the files are read again when they changed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'prepared-specs-'));
    const prepared = await prepareSpecs();
    const parsed = await loadSpecs();
    expect(JSON.parse(JSON.stringify(prepared.documents))).toEqual(JSON.parse(JSON.stringify(parsed.documents)));
    // A marker in the prepared documents shows which of the two a load returned.
    const marked = structuredClone(prepared) as {
      sources: Record<string, string>;
      documents: { alerts: { info: Json } };
    };
    marked.documents.alerts.info.title = 'prepared';
    const current = join(dir, 'current.json');
    await writeFile(current, JSON.stringify(marked));
    expect((await loadShippedSpecs(current)).documents.alerts.info.title).toBe('prepared');
    const stale = join(dir, 'stale.json');
    await writeFile(
      stale,
      JSON.stringify({ ...marked, sources: { ...marked.sources, alerts: 'made from another alerts.yaml' } }),
    );
    expect((await loadShippedSpecs(stale)).documents.alerts.info.title).toBe(parsed.documents.alerts.info.title);
    expect((await loadShippedSpecs(join(dir, 'none.json'))).operations.map((o) => o.key)).toEqual(
      parsed.operations.map((o) => o.key),
    );
    await writeFile(join(dir, 'broken.json'), '{');
    await expect(loadShippedSpecs(join(dir, 'broken.json'))).rejects.toMatchObject({ code: 'SPEC_INVALID' });
  });

  it('carry where each operation is written: a run locates its SARIF results without parsing YAML', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'prepared-lines-'));
    const prepared = await prepareSpecs();
    const parsed = await specLines();
    expect(prepared.lines).toEqual(parsed);
    const operations = (await loadSpecs()).operations.map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(
      Object.values(parsed)
        .flatMap((lines) => Object.keys(lines))
        .sort(),
    ).toEqual([...operations].sort());
    // A marker line shows which of the two a load returned; stale prepared lines are not used.
    const marked = structuredClone(prepared) as unknown as { sources: Json; lines: Record<string, Json> };
    marked.lines.alerts = { 'GET /marker': { line: 1, column: 1 } };
    const current = join(dir, 'current.json');
    await writeFile(current, JSON.stringify(marked));
    expect(Object.keys((await shippedSpecLines(current))?.alerts ?? {})).toEqual(['GET /marker']);
    const stale = join(dir, 'stale.json');
    await writeFile(
      stale,
      JSON.stringify({ ...marked, sources: { ...marked.sources, alerts: 'another alerts.yaml' } }),
    );
    expect(await shippedSpecLines(stale)).toBeUndefined();
    expect(await operationLocations(dir, prepared.lines)).toEqual(await operationLocations(dir));
  });
});
