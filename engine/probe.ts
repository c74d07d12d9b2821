import { randomBytes } from 'node:crypto';
import type { Probe } from '../core/probe-types.ts';
import type { Example } from './suite-types.ts';

/** A must-accept probe: the request is complete and valid by every reading of the documents. */
export function accept(label: string, more: Partial<Probe> = {}): Probe {
  return { intent: 'accept', label, ...more };
}

/** A probe built to be rejected; `rule` is the rule its request breaks, if any. */
export function reject(label: string, rule?: string, more: Partial<Probe> = {}): Probe {
  return { intent: 'reject', label, ...(rule ? { rules: [rule] } : {}), ...more };
}

/**
 * A probe the documents neither require to be accepted nor rejected: a rejection is no finding, a 2xx is judged by
 * every rule, a 5xx is a finding.
 */
export function observe(label: string, more: Partial<Probe> = {}): Probe {
  return { intent: 'observe', label, ...more };
}

/** The probe fields that name a generated example. */
export function fromExample(example: Example<unknown>): Pick<Probe, 'example'> {
  return { example: example.example };
}

/** A random token that no target knows. */
export function randomToken(prefix: string): string {
  return `${prefix}${randomBytes(18).toString('base64url')}`;
}
