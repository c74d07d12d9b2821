import { createHash } from 'node:crypto';
import * as fc from 'fast-check';

/** The hashes a key create body may carry instead of letting the target derive them. */
export type KeyHashData = { keyIdHash: string; keyIdSuffix: string; keySecretHash: string };

const ALPHANUMERIC = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The hash data of a key id and secret: each one's SHA-256 in hexadecimal, and the key id's last four characters (the
 * suffix a key answers with).
 */
export function hashDataOf(keyId: string, keySecret: string): KeyHashData {
  return { keyIdHash: sha256(keyId), keyIdSuffix: keyId.slice(-4), keySecretHash: sha256(keySecret) };
}

/**
 * Hash data of a drawn key id (20 letters or digits) and secret (40): the documented shape, as a client that makes its
 * own credentials sends it. Two draws share none but by a 62^20 chance; a suite makes each create's its own
 * (`keys.credentials-unique`).
 */
export function keyHashData(): fc.Arbitrary<KeyHashData> {
  return fc
    .tuple(
      fc.string({ unit: ALPHANUMERIC, minLength: 20, maxLength: 20 }),
      fc.string({ unit: ALPHANUMERIC, minLength: 40, maxLength: 40 }),
    )
    .map(([keyId, keySecret]) => hashDataOf(keyId, keySecret));
}
