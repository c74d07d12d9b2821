import { isSuccess } from '../transport/exchange.ts';
import { EVERY_OPERATION, type Rule } from '../rule-model/rule.ts';
import { echoOfUnsent } from '../spec/echo.ts';
import { missingPointer, violationsFromAjv } from '../rule-model/violations-from-ajv.ts';
import { asObject, payloadPath } from './body.ts';
import { withoutBigInts } from '../core/json-text.ts';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Rules every successful response of both APIs obeys. */
export const responseRules: Rule[] = [
  {
    id: 'response.content-type',
    title: 'Successful responses are JSON',
    basis: 'stated',
    sentence: "A successful response's body comes with a JSON `Content-Type` and parses as JSON.",
    probedBy: 'every 2xx response',
    operations: EVERY_OPERATION,
    applies: (ex) => isSuccess(ex),
    check: (ex) => {
      const violations = [];
      const type = ex.response?.headers['content-type'];
      if (!type || !JSON_TYPE.test(type))
        violations.push({
          path: 'header:content-type',
          expected: 'a JSON media type (application/json)',
          actual: type,
        });
      if (ex.response?.jsonError)
        violations.push({
          path: '',
          expected: 'a body that parses as JSON',
          actual: `${ex.response.jsonError}: ${ex.response.text.slice(0, 120)}`,
        });
      return violations;
    },
  },
  {
    id: 'response.schema',
    title: 'Successful payloads match the spec',
    basis: 'stated',
    sentence:
      "Every 2xx `result` (management) or `data` (alerts) validates against the operation's response " +
      'schema in `openapi/`.',
    probedBy: 'every 2xx response',
    operations: EVERY_OPERATION,
    applies: (ex) => isSuccess(ex) && asObject(ex.response?.json)?.[payloadPath(ex).slice(1)] !== undefined,
    check: (ex, ctx) => {
      const property = payloadPath(ex).slice(1);
      const validate =
        ctx.validators.response(ctx.operation, String(ex.response?.status), property) ??
        ctx.validators.response(ctx.operation, '200', property);
      const value = withoutBigInts(asObject(ex.response?.json)?.[property]);
      if (!validate) return [];
      // A field that carries back what the request left out may be absent or null (RULES.md): judge only what the
      // request makes certain.
      const certain = validate(value).filter((error) => {
        if (error.keyword === 'required') return !echoOfUnsent(ctx.operation, ex.request.json, missingPointer(error));
        if (error.keyword === 'type' && valueAt(value, error.instancePath) === null)
          return !echoOfUnsent(ctx.operation, ex.request.json, error.instancePath);
        return true;
      });
      return violationsFromAjv(certain, payloadPath(ex), value);
    },
  },
];

/** The value a JSON pointer names in `value`, or undefined. */
function valueAt(value: unknown, pointer: string): unknown {
  let here = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof here !== 'object' || here === null) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}
