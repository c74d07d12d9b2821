import * as fc from 'fast-check';
import { lazy } from './lazy.ts';
import { accessKey, type AccessKey } from './accessKey.ts';
import { iamRole } from './iamRole.ts';

/** The `stream` object of a create body. */
export type StreamSourceCreate = {
  streamName: string;
  region: string;
  useEnhancedFanOut: boolean;
  timestamp: number;
  iamRole: string;
  accessKey: AccessKey;
};

const REGIONS = Object.freeze(['us-east-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-1']);
// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const STREAM_NAME = lazy(() => fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,30}$/));

/**
 * Complete managed stream sources for create (`{ stream, validateSamples }`): stream name, region, enhanced fan-out, a
 * start timestamp (epoch seconds; the unit is not shown), iamRole and a secret accessKey.
 */
export function streamSourceCreate(): fc.Arbitrary<{ stream: StreamSourceCreate; validateSamples: boolean }> {
  const stream = fc.record(
    {
      streamName: STREAM_NAME,
      region: fc.constantFrom(...REGIONS),
      useEnhancedFanOut: fc.boolean(),
      timestamp: fc.integer({ min: Date.UTC(2020, 0, 1) / 1000, max: Date.UTC(2030, 0, 1) / 1000 }),
      iamRole: iamRole(),
      accessKey: accessKey(),
    },
    { noNullPrototype: true },
  );
  return fc.record({ stream, validateSamples: fc.boolean() }, { noNullPrototype: true });
}
