import * as fc from 'fast-check';
import { lazy } from './lazy.ts';
import { accessKey, type AccessKey } from './accessKey.ts';
import { identifier } from './identifier.ts';
import { iamRole } from './iamRole.ts';

/** The `objectStorage` object of a create body. */
export type ObjectStorageSourceCreate = {
  url: string;
  delimiter: string;
  compression: string;
  isContinuous: boolean;
  queueUrl: string;
  iamRole: string;
  connectionString: string;
  path: string;
  containerName: string;
  accessKey: AccessKey;
};

// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const ACCOUNT = lazy(() => fc.stringMatching(/^[0-9]{12}$/));
const PATTERN = fc.constantFrom('*.json', '*.csv', '*.parquet', 'data.ndjson', '**/*.json', 'part-?.csv');

/**
 * Complete object storage sources for create (`{ objectStorage, validateSamples }`): every documented field, the URL
 * style (url, queue, iamRole, secret accessKey) and the connection-string style (connectionString, containerName, path)
 * together; compression is only ever `auto`, the one value shown.
 */
export function objectStorageSourceCreate(): fc.Arbitrary<{
  objectStorage: ObjectStorageSourceCreate;
  validateSamples: boolean;
}> {
  const objectStorage = fc.record(
    {
      url: fc
        .tuple(identifier({ maxLength: 10 }), identifier({ maxLength: 10 }), PATTERN)
        .map(([bucket, prefix, file]) => `https://${bucket}.s3.amazonaws.com/${prefix}/${file}`),
      delimiter: fc.constantFrom(',', ';', '\t', '|'),
      compression: fc.constant('auto'),
      isContinuous: fc.boolean(),
      queueUrl: fc
        .tuple(ACCOUNT, identifier())
        .map(([account, queue]) => `https://sqs.us-east-1.amazonaws.com/${account}/${queue}`),
      iamRole: iamRole(),
      connectionString: identifier({ maxLength: 12 }).map(
        (account) => `DefaultEndpointsProtocol=https;AccountName=${account};EndpointSuffix=core.windows.net`,
      ),
      path: fc.tuple(identifier({ maxLength: 10 }), PATTERN).map(([prefix, file]) => `${prefix}/${file}`),
      containerName: identifier(),
      accessKey: accessKey(),
    },
    { noNullPrototype: true },
  );
  return fc.record({ objectStorage, validateSamples: fc.boolean() }, { noNullPrototype: true });
}
