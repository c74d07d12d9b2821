import { defineRules } from '../rule-model/rule.ts';
import { accessRules } from './access.ts';
import { alertRules } from './alerts.ts';
import { backupRules } from './backups.ts';
import { concurrentRules } from './concurrent.ts';
import { envelopeRules } from './envelope.ts';
import { keyRules } from './keys.ts';
import { keyStateRules } from './key-state.ts';
import { pipeRules } from './pipes.ts';
import { requestRules } from './request.ts';
import { responseRules } from './response.ts';
import { secretRules } from './secrets.ts';
import { serviceRules } from './service.ts';
import { timestampRules } from './timestamps.ts';
import { transportRules } from './transport.ts';
import { usageRules } from './usage.ts';
import { writeRules } from './writes.ts';

/** The rule table: every rule of RULES.md, once, in the order of RULES.md. */
export const RULES = defineRules([
  ...envelopeRules,
  ...responseRules,
  ...secretRules,
  ...pipeRules,
  ...serviceRules,
  ...keyRules,
  ...usageRules,
  ...backupRules,
  ...requestRules.filter((r) => r.id === 'auth.required'),
  ...requestRules.filter((r) => r.id !== 'auth.required'),
  ...alertRules.filter((r) => r.id !== 'alerts.enums'),
  ...concurrentRules,
  ...accessRules,
  ...keyStateRules,
  ...timestampRules,
  ...writeRules,
  ...alertRules.filter((r) => r.id === 'alerts.enums'),
  ...transportRules,
]);

/** Every rule id, in table order. */
export const RULE_IDS: readonly string[] = Object.freeze(RULES.map((rule) => rule.id));
