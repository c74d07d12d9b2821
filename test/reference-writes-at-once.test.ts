import { describe, expect, it } from 'vitest';
import { startReference, type ReferenceTarget } from '../reference/server.ts';
import { completeAlertUpdate } from './support/alert-update-body.ts';

type Json = Record<string, any>;

/** Sends one request with the target's own credentials, and reads its JSON answer. */
async function send(t: ReferenceTarget, api: 'management' | 'alerts', path: string, method = 'GET', body?: unknown) {
  const authorization =
    api === 'management'
      ? `Basic ${Buffer.from(`${t.managementKeyId}:${t.managementKeySecret}`).toString('base64')}`
      : `Bearer ${t.alertsToken}`;
  const headers: Record<string, string> = { authorization };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const base = api === 'management' ? t.managementUrl : t.alertsUrl;
  const reply = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: reply.status, json: (await reply.json()) as Json };
}

/** Two requests in flight together, or the second sent once the first is answered. */
const twice = async <T>(atOnce: boolean, first: () => Promise<T>, second: () => Promise<T>): Promise<T[]> =>
  atOnce ? Promise.all([first(), second()]) : [await first(), await second()];

const organization = (t: ReferenceTarget) => `/v1/organizations/${t.organizationId}`;
const pipes = (t: ReferenceTarget) => `${organization(t)}/services/${t.serviceId}/pipes`;

const PIPE = {
  name: 'p',
  source: {
    stream: {
      streamName: 's',
      region: 'us-east-1',
      useEnhancedFanOut: true,
      timestamp: 1,
      accessKey: { accessKeyId: 'a', secretKey: 'b' },
    },
  },
  destination: {
    database: 'd',
    table: 't',
    managedTable: true,
    columns: [{ name: 'id', type: 'UInt64' }],
    roles: ['w'],
  },
  fieldMappings: [{ sourceField: 'id', destinationField: 'id' }],
};

/** Two PATCHes of one pipe, each of another settings key; the settings read after them. */
async function twoPatches(t: ReferenceTarget, atOnce: boolean): Promise<{ answers: Json[]; settings: Json }> {
  const id = (await send(t, 'management', pipes(t), 'POST', PIPE)).json.result.id;
  const patch = (settings: Json) => () => send(t, 'management', `${pipes(t)}/${id}`, 'PATCH', { settings });
  const replies = await twice(atOnce, patch({ engine_max_threads: 31 }), patch({ engine_max_insert_threads: 17 }));
  expect(replies.map((reply) => reply.status)).toEqual([200, 200]);
  const settings = (await send(t, 'management', `${pipes(t)}/${id}/settings`)).json.result;
  return { answers: replies.map((reply) => reply.json.result.settings), settings };
}

/** Whether an alert shows every field an update body sent. */
const shows = (alert: Json, body: Json): boolean =>
  Object.entries(body).every(([field, value]) =>
    field === 'dashboardId' ? alert.dashboard === value : JSON.stringify(alert[field]) === JSON.stringify(value),
  );

/** Two complete updates of one alert; which of them each answer and the list after them show. */
async function twoUpdates(t: ReferenceTarget, atOnce: boolean): Promise<{ answersOwn: boolean; listedOne: boolean }> {
  const id = t.alertIds[0]!;
  const bodies = [completeAlertUpdate(1), completeAlertUpdate(2)];
  const update = (body: Json) => () => send(t, 'alerts', `/api/v2/alerts/${id}`, 'PUT', body);
  const replies = await twice(atOnce, update(bodies[0]!), update(bodies[1]!));
  const listed = (await send(t, 'alerts', '/api/v2/alerts')).json.data.find((alert: Json) => alert.id === id);
  return {
    answersOwn: replies.every((reply, i) => shows(reply.json.data, bodies[i]!)),
    listedOne: bodies.some((body) => shows(listed, body)),
  };
}

/** Two key creates: whether they share an id or a keyId. */
async function twoKeys(t: ReferenceTarget, atOnce: boolean): Promise<boolean> {
  const create = () => send(t, 'management', `${organization(t)}/keys`, 'POST', { name: 'k', roles: ['developer'] });
  const [a, b] = (await twice(atOnce, create, create)).map((reply) => reply.json.result);
  return a.keyId === b.keyId || a.key.id === b.key.id;
}

async function withTarget(options: Parameters<typeof startReference>[0], use: (t: ReferenceTarget) => Promise<void>) {
  const t = await startReference(options);
  try {
    await use(t);
  } finally {
    await t.close();
  }
}

const TRIALS = 3;

describe('writes sent at once to the reference target', () => {
  it('pipe-update-lost: two PATCHes in flight together lose one; sent one after another, both apply', async () => {
    await withTarget({ faults: ['pipe-update-lost'] }, async (t) => {
      for (let i = 0; i < TRIALS; i += 1) {
        const { answers, settings } = await twoPatches(t, true);
        expect(answers.map((answer) => [answer.engine_max_threads, answer.engine_max_insert_threads])).toEqual([
          [31, 4],
          [8, 17],
        ]);
        expect([settings.engine_max_threads, settings.engine_max_insert_threads]).toEqual([8, 17]);
        const inTurn = await twoPatches(t, false);
        expect([inTurn.settings.engine_max_threads, inTurn.settings.engine_max_insert_threads]).toEqual([31, 17]);
      }
    });
  });

  it.each(['pipe-writes-locked', 'last-write-per-key', undefined])(
    'mode %s: two PATCHes in flight together both apply, each answer after its own',
    async (mode) => {
      await withTarget({ modes: mode ? [mode] : [] }, async (t) => {
        for (let i = 0; i < TRIALS; i += 1) {
          const { answers, settings } = await twoPatches(t, true);
          expect([settings.engine_max_threads, settings.engine_max_insert_threads]).toEqual([31, 17]);
          expect(answers[0]!.engine_max_threads).toBe(31);
          expect(answers[1]!.engine_max_insert_threads).toBe(17);
        }
      });
    },
  );

  it('alert-update-field-by-field: two updates in flight together leave a mix, one after another not', async () => {
    await withTarget({ faults: ['alert-update-field-by-field'] }, async (t) => {
      for (let i = 0; i < TRIALS; i += 1) {
        const atOnce = await twoUpdates(t, true);
        expect(atOnce.answersOwn && atOnce.listedOne).toBe(false);
        expect(await twoUpdates(t, false)).toEqual({ answersOwn: true, listedOne: true });
      }
    });
    await withTarget({}, async (t) => {
      expect(await twoUpdates(t, true)).toEqual({ answersOwn: true, listedOne: true });
    });
  });

  it('key-ids-from-clock: keys created at once share their ids; one after another, they do not', async () => {
    await withTarget({ faults: ['key-ids-from-clock'] }, async (t) => {
      for (let i = 0; i < TRIALS; i += 1) {
        expect(await twoKeys(t, true)).toBe(true);
        expect(await twoKeys(t, false)).toBe(false);
      }
    });
    await withTarget({}, async (t) => {
      expect(await twoKeys(t, true)).toBe(false);
    });
  });
});
