import { isSuccess } from '../core/exchange.ts';
import type { Rule } from '../core/rule.ts';
import { asObject } from './body.ts';
import { MANAGEMENT_OPERATIONS } from './operations.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

const requestIdOf = (json: unknown): string | undefined => {
  const id = asObject(json)?.requestId;
  return typeof id === 'string' ? id : undefined;
};

/** Rules of the management API's `{status, requestId, result}` envelope. */
export const envelopeRules: Rule[] = [
  {
    id: 'envelope.shape',
    title: 'Successful management responses use the envelope',
    basis: 'stated',
    sentence: 'Every successful management response is an object with `status` (number), `requestId` (string) and `result` (object).',
    probedBy: 'every 2xx management response',
    operations: MANAGEMENT_OPERATIONS,
    applies: (ex) => ex.api === 'management' && isSuccess(ex),
    check: (ex) => {
      const body = asObject(ex.response?.json);
      if (!body) return [{ path: '', expected: 'a JSON object envelope', actual: ex.response?.json ?? ex.response?.text.slice(0, 200) }];
      const violations = [];
      if (typeof body.status !== 'number') violations.push({ path: '/status', expected: 'a number', actual: body.status });
      if (typeof body.requestId !== 'string') violations.push({ path: '/requestId', expected: 'a string', actual: body.requestId });
      if (!asObject(body.result)) violations.push({ path: '/result', expected: 'an object', actual: body.result });
      return violations;
    },
  },
  {
    id: 'envelope.status-matches-http',
    title: 'The envelope status is the HTTP status, 200',
    basis: 'stated',
    sentence: 'The envelope `status` equals the HTTP status, and success is 200.',
    probedBy: 'every 2xx management response',
    operations: MANAGEMENT_OPERATIONS,
    applies: (ex) => ex.api === 'management' && isSuccess(ex),
    check: (ex) => {
      const status = asObject(ex.response?.json)?.status;
      const http = ex.response?.status;
      const violations = [];
      if (http !== 200) violations.push({ path: '', expected: 'HTTP status 200 for a success', actual: http });
      if (typeof status === 'number' && status !== http) violations.push({ path: '/status', expected: `the HTTP status ${http}`, actual: status });
      return violations;
    },
  },
  {
    id: 'envelope.request-id-v4',
    title: 'requestId is a uuid v4',
    basis: 'stated',
    sentence: '`requestId` is a uuid of version 4.',
    probedBy: 'every management response that has one',
    operations: MANAGEMENT_OPERATIONS,
    applies: (ex) => ex.api === 'management' && requestIdOf(ex.response?.json) !== undefined,
    check: (ex) => {
      const id = requestIdOf(ex.response?.json);
      return id !== undefined && !UUID_V4.test(id) ? [{ path: '/requestId', expected: 'a uuid v4 (version nibble 4, variant 8, 9, a or b)', actual: id }] : [];
    },
  },
  {
    id: 'envelope.request-id-unique',
    title: 'No two responses share a requestId',
    basis: 'stated',
    sentence: 'No two responses of a run share a `requestId`.',
    probedBy: 'across the whole run',
    operations: MANAGEMENT_OPERATIONS,
    applies: (ex) => ex.api === 'management' && requestIdOf(ex.response?.json) !== undefined,
    check: (ex, ctx) => {
      const id = requestIdOf(ex.response?.json);
      return id !== undefined && ctx.seenRequestIds.has(id.toLowerCase()) ? [{ path: '/requestId', expected: 'a requestId not seen before in this run', actual: id }] : [];
    },
  },
];
