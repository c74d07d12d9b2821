import { randomBytes } from 'node:crypto';
import type { Probe, ProbeClass } from '../../core/probe.ts';
import type { Example } from './suite-types.ts';

/** A probe that expects acceptance. */
export function accept(klass: ProbeClass, label: string, more: Partial<Probe> = {}): Probe {
  return { intent: 'accept', klass, label, ...more };
}

/** A probe built to be rejected; `rule` is the rule its request breaks, if any. */
export function reject(label: string, rule?: string, more: Partial<Probe> = {}): Probe {
  return { intent: 'reject', klass: 'read', label, ...(rule ? { rules: [rule] } : {}), ...more };
}

/** A probe whose answer may be either; only the general rules judge it. */
export function observe(klass: ProbeClass, label: string, more: Partial<Probe> = {}): Probe {
  return { intent: 'observe', klass, label, ...more };
}

/** The probe fields that name a generated example. */
export function fromExample(example: Example<unknown>): Pick<Probe, 'example'> {
  return { example: example.example };
}

/** A random token that no target knows. */
export function randomToken(prefix: string): string {
  return `${prefix}${randomBytes(18).toString('base64url')}`;
}
