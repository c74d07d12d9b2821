import * as fc from 'fast-check';
import { lazy } from './lazy.ts';

/** One IP allow-list entry of a key create body. */
export type IpAccessEntry = {
  source: string;
  description: string;
};

const cidr = fc
  .tuple(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }), fc.integer({ min: 8, max: 32 }))
  .map(([octets, bits]) => {
    const address = octets.reduce((value, octet) => value * 256 + octet, 0);
    const network = bits === 32 ? address : address - (address % 2 ** (32 - bits));
    const parts = [24, 16, 8, 0].map((shift) => Math.floor(network / 2 ** shift) % 256);
    return `${parts.join('.')}/${bits}`;
  });

// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const DESCRIPTION = lazy(() => fc.stringMatching(/^[A-Za-z][A-Za-z0-9 _-]{0,30}[A-Za-z0-9]$/));

/**
 * IP allow lists of 1..`maxLength` entries whose source is an IPv4 address or a canonical IPv4 CIDR block, with a
 * description.
 */
export function ipAccessList(constraints: { maxLength?: number } = {}): fc.Arbitrary<IpAccessEntry[]> {
  const { maxLength = 3 } = constraints;
  const entry = fc.record(
    {
      source: fc.oneof(fc.ipV4(), cidr),
      description: DESCRIPTION,
    },
    { noNullPrototype: true },
  );
  return fc.uniqueArray(entry, { minLength: 1, maxLength: Math.max(1, maxLength), selector: (e) => e.source });
}
