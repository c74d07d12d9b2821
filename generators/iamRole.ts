import * as fc from 'fast-check';
import { lazy } from './lazy.ts';

// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const ACCOUNT = lazy(() => fc.stringMatching(/^[0-9]{12}$/));
const ROLE_NAME = lazy(() => fc.stringMatching(/^[A-Za-z][A-Za-z0-9_+=,.@-]{0,30}$/));

/** IAM role identifiers in ARN form (`arn:aws:iam::<account>:role/<name>`). */
export function iamRole(constraints: { account?: string } = {}): fc.Arbitrary<string> {
  const account = constraints.account === undefined ? ACCOUNT : fc.constant(constraints.account);
  return fc.tuple(account, ROLE_NAME).map(([id, name]) => `arn:aws:iam::${id}:role/${name}`);
}
