import { describe, expect, it } from 'vitest';
import { noOpenValues, OpenValues, withoutPaths } from '../suites/pipes/open-values.ts';

const OPEN = ['settings.engine_max_threads', 'source.relational.port', 'source.stream.timestamp'];

describe('the values of open fields a target gave', () => {
  it('learns each open path from a body or an answer, and fills a body with them alone', () => {
    const values = new OpenValues();
    values.learn(OPEN, { settings: { engine_max_threads: 4, other: 1 }, source: { relational: { port: 5432 } } });
    values.learn(OPEN, { settings: { engine_max_threads: 8 }, source: { relational: { host: 'h' } } });
    const body = { name: 'n', settings: { engine_max_threads: 99 }, source: { relational: { host: 'h', port: 1 } } };
    expect(values.missing(OPEN, body)).toEqual([]);
    // A changed value where the target gave another: 8 against a pipe that has 4.
    expect(values.fill(OPEN, body, 0, { settings: { engine_max_threads: 4 } })).toEqual({
      name: 'n',
      settings: { engine_max_threads: 8 },
      source: { relational: { host: 'h', port: 5432 } },
    });
    expect(body.source.relational.port).toBe(1);
    const stream = { source: { stream: { timestamp: 1, region: 'r' } } };
    expect(values.missing(OPEN, stream)).toEqual(['source.stream.timestamp']);
    expect(values.fill(OPEN, stream, 0)).toBeUndefined();
    expect(noOpenValues(values.missing(OPEN, stream))).toContain('gave no value of source.stream.timestamp');
  });

  it('strips the open paths from a body, and the objects they leave empty', () => {
    const body = { name: 'n', settings: { engine_max_threads: 1 }, source: { relational: { host: 'h', port: 1 } } };
    expect(withoutPaths(body, OPEN)).toEqual({ name: 'n', source: { relational: { host: 'h' } } });
  });
});

describe('a learned integer past 2^53 in what a report writes', () => {
  it('findings.json writes it as the digits sent', async () => {
    const { compactJson } = await import('../reports/compact-json.ts');
    const text = compactJson({ results: [{ minimal: { failing: { body: { port: 2n ** 64n + 1n } } } }] });
    expect(text).toContain('"port":18446744073709551617');
  });
});
