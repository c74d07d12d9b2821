import * as fc from 'fast-check';
import { caCertificate } from './caCertificate.ts';
import { credentials, type Credentials } from './credentials.ts';
import { identifier } from './identifier.ts';
import { iamRole } from './iamRole.ts';

/** The `broker` object of a create body. */
export type BrokerSourceCreate = {
  brokers: string;
  topics: string;
  consumerGroup: string;
  iamRole?: string;
  offset?: { timestamp: string };
  schemaRegistry?: { url: string; caCertificate?: string; credentials?: Credentials };
  caCertificate?: string;
  reversePrivateEndpointIds?: string[];
  credentials?: Credentials;
};

const MINUTE_MIN = Date.UTC(2020, 0, 1) / 60_000;
const MINUTE_MAX = Date.UTC(2030, 11, 31) / 60_000;
// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const PRIVATE_ENDPOINT_ID = fc.stringMatching(/^vpce-[0-9a-f]{17}$/);

/** Broker sources for create (`{ broker, validateSamples? }`): brokers, topics and consumer group, with or without `iamRole` (`iamRole: true` always, `false` never), and optional offset, schema registry, CA certificate, private endpoints and secret credentials. */
export function brokerSourceCreate(constraints: { iamRole?: boolean } = {}): fc.Arbitrary<{ broker: BrokerSourceCreate; validateSamples?: boolean }> {
  const host = fc.tuple(identifier({ maxLength: 8 }), fc.integer({ min: 1, max: 3 })).map(([name, n]) => `b-${n}.${name}.kafka.example.com:9092`);
  const model = {
    brokers: fc.uniqueArray(host, { minLength: 1, maxLength: 3 }).map((hosts) => hosts.join(',')),
    topics: fc.uniqueArray(identifier(), { minLength: 1, maxLength: 3 }).map((topics) => topics.join(',')),
    consumerGroup: identifier().map((name) => `cg-${name}`),
    ...(constraints.iamRole === false ? {} : { iamRole: iamRole() }),
    offset: fc.record({
      timestamp: fc.integer({ min: MINUTE_MIN, max: MINUTE_MAX }).map((minute) => new Date(minute * 60_000).toISOString().slice(0, 16)),
    }, { noNullPrototype: true }),
    schemaRegistry: fc.record(
      {
        url: identifier({ maxLength: 8 }).map((name) => `https://${name}.registry.example.com`),
        caCertificate: caCertificate(),
        credentials: credentials(),
      },
      { noNullPrototype: true, requiredKeys: ['url'] },
    ),
    caCertificate: caCertificate(),
    reversePrivateEndpointIds: fc.uniqueArray(PRIVATE_ENDPOINT_ID, { minLength: 1, maxLength: 2 }),
    credentials: credentials(),
  };
  const required = ['brokers', 'topics', 'consumerGroup', ...(constraints.iamRole === true ? ['iamRole'] : [])] as (keyof typeof model)[];
  const broker = fc.record(model, { noNullPrototype: true, requiredKeys: required }) as fc.Arbitrary<BrokerSourceCreate>;
  return fc.record({ broker, validateSamples: fc.boolean() }, { noNullPrototype: true, requiredKeys: ['broker'] });
}
