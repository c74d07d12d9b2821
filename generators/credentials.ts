import * as fc from 'fast-check';
import { secretValue } from './secretValue.ts';

/** A username and password pair, as sent in `credentials` and `schemaRegistry.credentials`. */
export type SourceCredentials = {
  username: string;
  password: string;
};

/** Request-only credentials whose username and password are both fresh secret values. */
export function credentials(constraints: { prefix?: string } = {}): fc.Arbitrary<SourceCredentials> {
  return fc.record(
    { username: secretValue(constraints), password: secretValue(constraints) },
    { noNullPrototype: true },
  );
}
