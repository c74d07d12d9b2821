import { timingSafeEqual } from 'node:crypto';
import type { AuthVerdict } from './hooks.ts';
import { hashSecret, type KeyRecord, type Store, type Team } from './store.ts';

/** Checks HTTP Basic credentials against the usable keys, and records the key's use. */
export function verifyBasic(header: string | undefined, store: Store, now: Date): AuthVerdict {
  const parsed = splitScheme(header);
  if (parsed.scheme !== 'basic') return { accepted: false, scheme: parsed.scheme, knownKey: false };
  const decoded = Buffer.from(parsed.value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0)
    return { accepted: false, scheme: 'basic', knownKey: false, presented: { user: decoded, secret: undefined } };
  const presented = { user: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  const key = store.keys.get(presented.user);
  if (!usableKey(key, now)) return { accepted: false, scheme: 'basic', knownKey: false, presented };
  const accepted = timingSafeEqual(hashSecret(presented.secret), key.secretHash);
  if (accepted) store.keys.set(key.keyId, { ...key, usedAt: now.toISOString() });
  return {
    accepted,
    scheme: 'basic',
    knownKey: true,
    presented,
    ...(accepted ? { organizationId: key.organizationId } : {}),
  };
}

/** Whether a key may authenticate: it exists, is enabled and has not expired. */
export function usableKey(key: KeyRecord | undefined, now: Date): key is KeyRecord {
  return (
    key !== undefined && key.state === 'enabled' && (key.expireAt === null || Date.parse(key.expireAt) > now.getTime())
  );
}

/** Checks a Bearer token against the teams' tokens; an accepted one names its team. */
export function verifyBearer(header: string | undefined, teams: readonly Team[]): AuthVerdict {
  const parsed = splitScheme(header);
  if (parsed.scheme !== 'bearer') return { accepted: false, scheme: parsed.scheme, knownKey: false };
  const sent = hashSecret(parsed.value);
  const team = teams.find((t) => timingSafeEqual(sent, hashSecret(t.alertsToken)));
  const presented = { secret: parsed.value };
  return team === undefined
    ? { accepted: false, scheme: 'bearer', knownKey: false, presented }
    : { accepted: true, scheme: 'bearer', knownKey: false, team: team.team, presented };
}

function splitScheme(header: string | undefined): { scheme: AuthVerdict['scheme']; value: string } {
  if (header === undefined || header.trim() === '') return { scheme: 'none', value: '' };
  const match = /^(\S+)\s+(.*)$/.exec(header.trim());
  if (match === null) return { scheme: 'other', value: '' };
  const scheme = (match[1] ?? '').toLowerCase();
  const value = (match[2] ?? '').trim();
  if (scheme === 'basic') return { scheme: 'basic', value };
  if (scheme === 'bearer') return { scheme: 'bearer', value };
  return { scheme: 'other', value: '' };
}
