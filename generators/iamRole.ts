import * as fc from 'fast-check';

/** IAM role identifiers in ARN form (`arn:aws:iam::<account>:role/<name>`). */
export function iamRole(constraints: { account?: string } = {}): fc.Arbitrary<string> {
  const account = constraints.account === undefined ? fc.stringMatching(/^[0-9]{12}$/) : fc.constant(constraints.account);
  return fc
    .tuple(account, fc.stringMatching(/^[A-Za-z][A-Za-z0-9_+=,.@-]{0,30}$/))
    .map(([id, name]) => `arn:aws:iam::${id}:role/${name}`);
}
