import { describe, expect, it } from 'vitest';
import { refusalHints } from '../suites/pipes/refusal-hints.ts';

const PATHS = [
  'settings.streaming_max_insert_wait_ms',
  'settings.object_storage_concurrency',
  'scaling.concurrency',
  'scaling.replicas',
  'scaling.replicaMemoryGb',
  'scaling.replicaCpuMillicores',
  'source.relational.port',
];

describe('what a refusal says of the open fields', () => {
  it('gives the lowest allowed value of each field it names, whatever the wording', () => {
    const text = JSON.stringify({
      status: 400,
      error:
        'fieldMappings must map destination column "c"; settings.streaming_max_insert_wait_ms must be a whole number ' +
        'from 690 to 1020; settings.object_storage_concurrency must be a whole number from 1 to 13; ' +
        'scaling.replicaMemoryGb must be a multiple of 0.5 from 1.5 to 9',
    });
    expect(Object.fromEntries(refusalHints(text, PATHS))).toEqual({
      'settings.streaming_max_insert_wait_ms': 690,
      'settings.object_storage_concurrency': 1,
      'scaling.replicaMemoryGb': 1.5,
    });
    expect(Object.fromEntries(refusalHints('{"message":"replicas must be between 1 and 40"}', PATHS))).toEqual({
      'scaling.replicas': 1,
    });
    expect(Object.fromEntries(refusalHints('port: at least 1024, at most 65535', PATHS))).toEqual({
      'source.relational.port': 1024,
    });
  });

  it('takes the highest when only that is given, else the first number said of the field', () => {
    expect(Object.fromEntries(refusalHints('replicaCpuMillicores can be at most 2000', PATHS))).toEqual({
      'scaling.replicaCpuMillicores': 2000,
    });
    expect(Object.fromEntries(refusalHints('replicas (got 0): allowed 3', PATHS))).toEqual({ 'scaling.replicas': 0 });
    // Never the value the refused request sent.
    const sent = (path: string): unknown => (path === 'scaling.replicas' ? 0 : undefined);
    expect(Object.fromEntries(refusalHints('replicas (got 0): allowed 3', PATHS, sent))).toEqual({
      'scaling.replicas': 3,
    });
    expect(refusalHints('replicas must be from 0', PATHS, sent).size).toBe(0);
  });

  it('names a field by its whole name only, and reads each field up to the next one or the next sentence', () => {
    // "concurrency" is inside "object_storage_concurrency": not a mention of scaling.concurrency.
    const hints = refusalHints('object_storage_concurrency must be from 2 to 8; replicas is required', PATHS);
    expect(Object.fromEntries(hints)).toEqual({ 'settings.object_storage_concurrency': 2 });
    expect(refusalHints('replicas is required\\nport must be from 1 to 9', PATHS).get('scaling.replicas')).toBe(
      undefined,
    );
    expect(refusalHints('replicas port 5', PATHS).get('scaling.replicas')).toBe(undefined);
    expect(Object.fromEntries(refusalHints('replicas and port must be from 1 to 9', PATHS))).toEqual({
      'source.relational.port': 1,
    });
  });

  it('gives nothing for a refusal that names no field or no number', () => {
    expect(refusalHints('{"error":"invalid body"}', PATHS).size).toBe(0);
    expect(refusalHints('{"error":"settings is required"}', PATHS).size).toBe(0);
    expect(refusalHints('', PATHS).size).toBe(0);
  });
});
