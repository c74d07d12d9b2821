import { APIS } from '../apis/index.ts';
import type { Envelope } from '../apis/descriptor.ts';
import { type Exchange, isSuccess } from '../transport/exchange.ts';
import {
  EVERY_ENVELOPED_OPERATION,
  rememberingRule,
  type Rule,
  type RuleMemory,
  type Violation,
} from '../rule-model/rule.ts';
import { asObject } from './body.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The exchange's API's envelope, when it has the `{status, requestId, payload}` form. */
const envelopeOf = (ex: Exchange): Required<Envelope> | undefined => {
  const envelope = APIS[ex.api].envelope;
  return envelope.status !== undefined && envelope.requestId !== undefined
    ? (envelope as Required<Envelope>)
    : undefined;
};

/** The response's request id, when its API's envelope has one and the response carries it as a string. */
export function requestIdOf(ex: Exchange): string | undefined {
  const field = APIS[ex.api].envelope.requestId;
  const id = field === undefined ? undefined : asObject(ex.response?.json)?.[field];
  return typeof id === 'string' ? id : undefined;
}

/** Rules of the `{status, requestId, result}` envelope (the management API's; its descriptor names the fields). */
/** The requestIds of the run's responses so far, lower-cased. */
const seenRequestIds: RuleMemory<Set<string>> = {
  create: () => new Set(),
  answered(seen, exchange) {
    const id = requestIdOf(exchange);
    if (id !== undefined) seen.add(id.toLowerCase());
  },
};

export const envelopeRules: Rule[] = [
  {
    id: 'envelope.shape',
    title: 'Successful management responses use the envelope',
    basis: 'stated',
    sentence:
      'Every successful management response is an object with `status` (number), `requestId` (string) and ' +
      '`result` (object).',
    probedBy: 'every 2xx management response',
    operations: EVERY_ENVELOPED_OPERATION,
    applies: (ex) => envelopeOf(ex) !== undefined && isSuccess(ex),
    check: (ex) => {
      const { status, requestId, payload } = envelopeOf(ex)!;
      const body = asObject(ex.response?.json);
      if (!body)
        return [
          {
            path: '',
            expected: 'a JSON object envelope',
            actual: ex.response?.json ?? ex.response?.text.slice(0, 200),
          },
        ];
      const violations: Violation[] = [];
      if (typeof body[status] !== 'number')
        violations.push({ path: `/${status}`, expected: 'a number', actual: body[status] });
      if (typeof body[requestId] !== 'string')
        violations.push({ path: `/${requestId}`, expected: 'a string', actual: body[requestId] });
      if (!asObject(body[payload]))
        violations.push({ path: `/${payload}`, expected: 'an object', actual: body[payload] });
      return violations;
    },
  },
  {
    id: 'envelope.status-matches-http',
    title: 'The envelope status is the HTTP status, 200',
    basis: 'stated',
    sentence: 'The envelope `status` equals the HTTP status, and success is 200.',
    probedBy: 'every 2xx management response',
    operations: EVERY_ENVELOPED_OPERATION,
    applies: (ex) => envelopeOf(ex) !== undefined && isSuccess(ex),
    check: (ex) => {
      const field = envelopeOf(ex)!.status;
      const status = asObject(ex.response?.json)?.[field];
      const http = ex.response?.status;
      const violations: Violation[] = [];
      if (http !== 200) violations.push({ path: '', expected: 'HTTP status 200 for a success', actual: http });
      if (typeof status === 'number' && status !== http)
        violations.push({ path: `/${field}`, expected: `the HTTP status ${http}`, actual: status });
      return violations;
    },
  },
  {
    id: 'envelope.request-id-v4',
    title: 'requestId is a uuid v4',
    basis: 'stated',
    sentence: '`requestId` is a uuid of version 4.',
    probedBy: 'every management response that has one',
    operations: EVERY_ENVELOPED_OPERATION,
    applies: (ex) => requestIdOf(ex) !== undefined,
    check: (ex) => {
      const id = requestIdOf(ex);
      return id !== undefined && !UUID_V4.test(id)
        ? [
            {
              path: `/${envelopeOf(ex)!.requestId}`,
              expected: 'a uuid v4 (version nibble 4, variant 8, 9, a or b)',
              actual: id,
            },
          ]
        : [];
    },
  },
  rememberingRule({
    id: 'envelope.request-id-unique',
    title: 'No two responses share a requestId',
    basis: 'stated',
    sentence: 'No two responses of a run share a `requestId`.',
    probedBy: 'across the whole run',
    operations: EVERY_ENVELOPED_OPERATION,
    memory: seenRequestIds,
    applies: (ex) => requestIdOf(ex) !== undefined,
    check: (ex, ctx, seen) => {
      // A second look at an answer already recorded: its requestId is in the memory because of itself.
      if (ctx.again) return [];
      const id = requestIdOf(ex);
      const expected = 'a requestId not seen before in this run';
      return id !== undefined && seen.has(id.toLowerCase())
        ? [{ path: `/${envelopeOf(ex)!.requestId}`, expected, actual: id }]
        : [];
    },
  }),
];
