import { describe, expect, it } from 'vitest';
import type { Exchange } from '../transport/exchange.ts';
import { createRedactor, REDACTED } from '../secrets/redaction.ts';
import { createSecretIndex } from '../secrets/secret-index.ts';
import { createSecretRegistry, redactedNames, secretsIn } from '../secrets/secret-registry.ts';

/** The specs' secret fields as the registry reads them. */
const SPECS = Object.freeze({ secretFields: ['credentials', 'keySecret'], requestOnlySecretFields: ['credentials'] });

/** A createPipe-like exchange: the request body sent and the response body returned. */
function exchange(sent: unknown, returned: unknown): Exchange {
  return {
    api: 'management',
    operation: 'POST /pipes',
    operationId: 'createPipe',
    probe: { intent: 'accept', label: 'a valid pipe' },
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:1/v1/pipes',
      headers: {},
      auth: 'default',
      params: {},
      query: {},
      json: sent,
    },
    response: { status: 200, headers: {}, text: JSON.stringify(returned), json: returned, durationMs: 1 },
  };
}

describe('the secret index: a kind per entry', () => {
  it('looks for the secrets sent only in its sent view, and a secret held and then sent is sent', () => {
    const index = createSecretIndex();
    index.add('held-value-1', 'held');
    index.add('sent-value-1');
    expect(index.sent.foundIn('held-value-1 sent-value-1').map((f) => f.secret)).toEqual(['sent-value-1']);
    expect(index.everyIn('held-value-1 sent-value-1').map((f) => f.secret)).toEqual(['held-value-1', 'sent-value-1']);
    index.add('held-value-1', 'sent');
    expect(index.sent.size).toBe(2);
    expect(index.sent.foundIn(Buffer.from('held-value-1').toString('hex')).map((f) => f.form)).toEqual(['hex']);
  });
});

describe('createSecretRegistry', () => {
  it('walks a request body once for its request-only values and its username and password pairs', () => {
    const body = { name: 'p', credentials: { username: 'user-1', password: 'pass@word-1' }, tags: ['t'] };
    expect(secretsIn(body, SPECS.requestOnlySecretFields)).toEqual({
      values: ['user-1', 'pass@word-1'],
      pairs: [{ username: 'user-1', password: 'pass@word-1' }],
    });
  });

  it('gives secrets.absent the secrets sent and the redactor every secret, in every form', () => {
    const settings = {
      management: { baseUrl: 'http://127.0.0.1:1', keyId: 'key-id', keySecret: 'run-key-secret', organizationId: 'o' },
    };
    const registry = createSecretRegistry(settings);
    const sent = { credentials: { username: 'user-1', password: 'pass@word-1' } };
    const generated = registry.record(exchange(sent, { keySecret: 'returned-secret' }), SPECS);
    expect(generated).toEqual(['user-1', 'pass@word-1']);
    const basic = Buffer.from('user-1:pass@word-1').toString('base64');
    const text = `run-key-secret ${basic} returned-secret ${encodeURIComponent('pass@word-1')}`;
    expect(registry.sent.foundIn(text).map((f) => `${f.secret} ${f.form}`)).toEqual(
      expect.arrayContaining(['run-key-secret plain', 'pass@word-1 percent', 'user-1:pass@word-1 basic']),
    );
    expect(registry.sent.foundIn(text)).toHaveLength(3);
    const redactor = createRedactor(redactedNames(SPECS), registry);
    expect(redactor.text(text)).toBe([REDACTED, REDACTED, REDACTED, REDACTED].join(' '));
    expect(redactor.textKeeping('pass@word-1 run-key-secret', new Set(generated))).toBe(`pass@word-1 ${REDACTED}`);
  });

  it('redacts a secret sent leaked in part whole, overlapping runs joined: none of its characters is left', () => {
    const secret = 'sv_Abc12@Def34:Ghi56/Jkl78+Mno9 Pqr0';
    const registry = createSecretRegistry();
    registry.add(secret, 'sent');
    const redactor = createRedactor([], registry);
    expect(redactor.text(`{"hint":"${secret.slice(2, 25)}","n":1}`)).toBe(`{"hint":"${REDACTED}","n":1}`);
    expect(redactor.text(`${secret.slice(0, 11)} stays`)).toBe(`${secret.slice(0, 11)} stays`);
  });
});
