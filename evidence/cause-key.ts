/**
 * A JSON pointer with its array indices as `*`; headers and the whole response as they are (header names in lower
 * case).
 */
export function normalisedPath(path: string): string {
  if (path === '' || path.startsWith('header:')) return path.toLowerCase();
  return path
    .split('/')
    .map((segment) => (/^\d+$/.test(segment) ? '*' : segment))
    .join('/');
}

/** What a violation saw and what came back: the parts of a finding that tell its kind of wrong value. */
export interface KindEvidence {
  readonly path: string;
  readonly actual?: unknown;
  /** The transport failure's code, when no response came back. */
  readonly failure?: string;
  readonly status?: number;
}

/**
 * The kind of wrong value a violation saw: the transport failure, the status class, a uuid's version, a secret, a JSON
 * type, or `absent`.
 */
export function kindOfEvidence(evidence: KindEvidence): string {
  const { failure, actual, status, path } = evidence;
  if (failure) return failure;
  if (actual === undefined) return 'absent';
  if (path === '' && typeof actual === 'number' && actual >= 100 && actual < 600)
    return `HTTP ${Math.floor(actual / 100)}xx`;
  if (path === '' && status !== undefined) return `HTTP ${Math.floor(status / 100)}xx`;
  if (typeof actual === 'string') {
    if (actual === '[redacted]') return 'a secret';
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/i.exec(actual);
    if (uuid) return `uuid v${uuid[1]?.toLowerCase()}`;
    return 'string';
  }
  if (actual === null) return 'null';
  if (Array.isArray(actual)) return 'array';
  return typeof actual;
}

/** The key that groups violations into one cause: the rule, the normalised path and the kind of wrong value. */
export function causeKey(rule: string, evidence: KindEvidence): string {
  return `${rule}\u0000${normalisedPath(evidence.path)}\u0000${kindOfEvidence(evidence)}`;
}
