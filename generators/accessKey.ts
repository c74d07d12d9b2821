import * as fc from 'fast-check';
import { secretValue } from './secretValue.ts';

/** An access key pair, as sent in `accessKey`. */
export type AccessKey = {
  accessKeyId: string;
  secretKey: string;
};

/** Request-only access keys whose id and secret are both fresh secret values. */
export function accessKey(constraints: { prefix?: string } = {}): fc.Arbitrary<AccessKey> {
  return fc.record(
    { accessKeyId: secretValue(constraints), secretKey: secretValue(constraints) },
    { noNullPrototype: true },
  );
}
