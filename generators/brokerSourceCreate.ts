import * as fc from 'fast-check';
import { lazy } from './lazy.ts';
import { caCertificate } from './caCertificate.ts';
import { credentials, type SourceCredentials } from './credentials.ts';
import { identifier } from './identifier.ts';
import { iamRole } from './iamRole.ts';

/** The `broker` object of a create body. */
export type BrokerSourceCreate = {
  brokers: string;
  topics: string;
  consumerGroup: string;
  iamRole: string;
  offset: { timestamp: string };
  schemaRegistry: { url: string; caCertificate: string; credentials: SourceCredentials };
  caCertificate: string;
  reversePrivateEndpointIds: string[];
  credentials: SourceCredentials;
};

const MINUTE_MIN = Date.UTC(2020, 0, 1) / 60_000;
const MINUTE_MAX = Date.UTC(2030, 11, 31) / 60_000;
// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const PRIVATE_ENDPOINT_ID = lazy(() => fc.stringMatching(/^vpce-[0-9a-f]{17}$/));

/**
 * Complete broker sources for create (`{ broker, validateSamples }`): every documented field, the schema registry with
 * its CA certificate and secret credentials included.
 */
export function brokerSourceCreate(): fc.Arbitrary<{ broker: BrokerSourceCreate; validateSamples: boolean }> {
  const host = fc
    .tuple(identifier({ maxLength: 8 }), fc.integer({ min: 1, max: 3 }))
    .map(([name, n]) => `b-${n}.${name}.kafka.example.com:9092`);
  const broker = fc.record(
    {
      brokers: fc.uniqueArray(host, { minLength: 1, maxLength: 3 }).map((hosts) => hosts.join(',')),
      topics: fc.uniqueArray(identifier(), { minLength: 1, maxLength: 3 }).map((topics) => topics.join(',')),
      consumerGroup: identifier().map((name) => `cg-${name}`),
      iamRole: iamRole(),
      offset: fc.record(
        {
          timestamp: fc
            .integer({ min: MINUTE_MIN, max: MINUTE_MAX })
            .map((minute) => new Date(minute * 60_000).toISOString().slice(0, 16)),
        },
        { noNullPrototype: true },
      ),
      schemaRegistry: fc.record(
        {
          url: identifier({ maxLength: 8 }).map((name) => `https://${name}.registry.example.com`),
          caCertificate: caCertificate(),
          credentials: credentials(),
        },
        { noNullPrototype: true },
      ),
      caCertificate: caCertificate(),
      reversePrivateEndpointIds: fc.uniqueArray(PRIVATE_ENDPOINT_ID, { minLength: 1, maxLength: 2 }),
      credentials: credentials(),
    },
    { noNullPrototype: true },
  );
  return fc.record({ broker, validateSamples: fc.boolean() }, { noNullPrototype: true });
}
