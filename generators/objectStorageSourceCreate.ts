import * as fc from 'fast-check';
import { accessKey, type AccessKey } from './accessKey.ts';
import { identifier } from './identifier.ts';
import { iamRole } from './iamRole.ts';

/** The `objectStorage` object of a create body. */
export type ObjectStorageSourceCreate = {
  url?: string;
  delimiter?: string;
  compression?: 'auto';
  isContinuous?: boolean;
  queueUrl?: string;
  iamRole?: string;
  connectionString?: string;
  path?: string;
  containerName?: string;
  accessKey?: AccessKey;
};

// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const ACCOUNT = fc.stringMatching(/^[0-9]{12}$/);
const pattern = fc.constantFrom('*.json', '*.csv', '*.parquet', 'data.ndjson', '**/*.json', 'part-?.csv');

function urlStyle(): fc.Arbitrary<ObjectStorageSourceCreate> {
  return fc.record(
    {
      url: fc.tuple(identifier({ maxLength: 10 }), identifier({ maxLength: 10 }), pattern)
        .map(([bucket, prefix, file]) => `https://${bucket}.s3.amazonaws.com/${prefix}/${file}`),
      delimiter: fc.constantFrom(',', ';', '\t', '|'),
      compression: fc.constant('auto' as const),
      isContinuous: fc.boolean(),
      queueUrl: fc.tuple(ACCOUNT, identifier()).map(([account, queue]) => `https://sqs.us-east-1.amazonaws.com/${account}/${queue}`),
      iamRole: iamRole(),
      accessKey: accessKey(),
    },
    { noNullPrototype: true, requiredKeys: ['url'] },
  );
}

function connectionStringStyle(): fc.Arbitrary<ObjectStorageSourceCreate> {
  return fc.record(
    {
      connectionString: identifier({ maxLength: 12 }).map((account) => `DefaultEndpointsProtocol=https;AccountName=${account};EndpointSuffix=core.windows.net`),
      containerName: identifier(),
      path: fc.tuple(identifier({ maxLength: 10 }), pattern).map(([prefix, file]) => `${prefix}/${file}`),
      delimiter: fc.constantFrom(',', ';', '\t', '|'),
      compression: fc.constant('auto' as const),
      isContinuous: fc.boolean(),
    },
    { noNullPrototype: true, requiredKeys: ['connectionString', 'containerName', 'path'] },
  );
}

/** Object storage sources for create (`{ objectStorage, validateSamples? }`), in URL style (url, optional queue, iamRole and secret accessKey) or connection-string style (connectionString, containerName, path); compression is only ever `auto`. */
export function objectStorageSourceCreate(
  constraints: { style?: 'url' | 'connectionString' } = {},
): fc.Arbitrary<{ objectStorage: ObjectStorageSourceCreate; validateSamples?: boolean }> {
  const objectStorage = constraints.style === 'url' ? urlStyle()
    : constraints.style === 'connectionString' ? connectionStringStyle()
    : fc.oneof(urlStyle(), connectionStringStyle());
  return fc.record({ objectStorage, validateSamples: fc.boolean() }, { noNullPrototype: true, requiredKeys: ['objectStorage'] });
}
