import { describe, expect, it } from 'vitest';
import {
  admissibleOrders,
  linearize,
  renderLinearization,
  type LinearModel,
  type TimedWrite,
} from '../rules/linearizability.ts';
import { alertOutcome, alertUpdatesModel, pipeUpdatesModel, settingsAfter } from '../rules/concurrent-models.ts';
import { completeAlertUpdate } from './support/alert-update-body.ts';

type Json = Record<string, unknown>;

/** A pipe as far as these histories go: its settings. */
const pipe = (settings: Json) => pipeUpdatesModel({ initial: settings, apply: settingsAfter, settings: (s) => s });

/** A PATCH that sets `settings`, in flight from `sent` to `answered`, answered with the pipe's settings `shown`. */
const patch = (settings: Json, sent: number, answered: number, shown: Json): TimedWrite<Json, unknown> => ({
  write: { settings },
  sent,
  answered,
  answer: { id: 'p', settings: shown },
});

/** A register: each write sets it; an answer and the read show its value. */
const register: LinearModel<number, number, number, number> = {
  initial: 0,
  apply: (_state, write) => write,
  answer: (state, _write, answer) => (state === answer ? [] : [{ path: '', expected: String(state), actual: answer }]),
  read: (state, read) => (state === read ? [] : [{ path: '', expected: String(state), actual: read }]),
};

const write = (value: number, sent: number, answered: number): TimedWrite<number, number> => ({
  write: value,
  sent,
  answered,
  answer: value,
});

/** An alert as an update answers it (`dashboardId` as `dashboard`). */
function alertRecord(id: string, body: Json): Json {
  const { dashboardId, ...rest } = body;
  return { id, ...rest, dashboard: dashboardId, savedSearch: '', groupBy: '', silenced: false };
}

describe('admissible orders', () => {
  it('overlapping writes may come in any order; a write answered before another was sent comes first', () => {
    expect(admissibleOrders([write(1, 0, 10), write(2, 5, 15)])).toEqual({
      orders: [
        [0, 1],
        [1, 0],
      ],
      inadmissible: 0,
    });
    expect(admissibleOrders([write(1, 0, 10), write(2, 11, 15)])).toEqual({ orders: [[0, 1]], inadmissible: 1 });
    expect(admissibleOrders([write(1, 20, 30), write(2, 0, 10), write(3, 5, 25)]).orders).toEqual([
      [1, 0, 2],
      [1, 2, 0],
      [2, 1, 0],
    ]);
  });

  it('tries every one of 4! orders of four writes in flight together, and refuses a fifth write', () => {
    const four = [write(1, 0, 9), write(2, 1, 9), write(3, 2, 9), write(4, 3, 9)];
    expect(admissibleOrders(four).orders).toHaveLength(24);
    const result = linearize(register, four, { value: 7 });
    expect(result.explainedBy).toBeUndefined();
    expect(result.tried).toHaveLength(24);
    expect(new Set(result.tried.map((t) => t.order.join())).size).toBe(24);
    expect(() => admissibleOrders([...four, write(5, 4, 9)])).toThrow(RangeError);
  });
});

describe('linearize', () => {
  it('finds the one order that explains the answers and the read', () => {
    const writes = [write(1, 0, 10), write(2, 1, 11), write(3, 2, 12)];
    const result = linearize(register, writes, { value: 2 });
    expect(result.explainedBy).toEqual([0, 2, 1]);
    expect(result.tried.at(-1)).toEqual({ order: [0, 2, 1] });
    expect(result.tried[0]).toEqual({
      order: [0, 1, 2],
      disagreement: { at: 'read', violations: [{ path: '', expected: '3', actual: 2 }] },
    });
  });

  it('overlapping writes: an order other than the one sent explains them; ordered in real time, none does', () => {
    const overlapping = [write(1, 0, 10), write(2, 5, 15)];
    expect(linearize(register, overlapping, { value: 1 }).explainedBy).toEqual([1, 0]);
    const ordered = [write(1, 0, 10), write(2, 11, 15)];
    const result = linearize(register, ordered, { value: 1 });
    expect(result.explainedBy).toBeUndefined();
    expect(result.inadmissible).toBe(1);
    expect(result.tried).toEqual([
      { order: [0, 1], disagreement: { at: 'read', violations: [{ path: '', expected: '2', actual: 1 }] } },
    ]);
  });

  it('an answer no order explains is named with the first write it disagrees with in each order', () => {
    const writes = [write(1, 0, 10), { ...write(2, 1, 11), answer: 5 }];
    const result = linearize(register, writes, { value: 2 });
    expect(result.explainedBy).toBeUndefined();
    expect(result.tried.map((t) => t.disagreement)).toEqual([
      { at: 'answer', write: 1, violations: [{ path: '', expected: '2', actual: 5 }] },
      { at: 'answer', write: 1, violations: [{ path: '', expected: '2', actual: 5 }] },
    ]);
  });
});

describe('PATCHes of one pipe sent at once', () => {
  const initial = { a: 1, b: 1, c: 1 };

  it('two PATCHes of different keys, both applied: explained, whichever answered first', () => {
    const writes = [patch({ a: 2 }, 0, 12, { a: 2, b: 2, c: 1 }), patch({ b: 2 }, 1, 10, { a: 1, b: 2, c: 1 })];
    const result = linearize(pipe(initial), writes, { value: { a: 2, b: 2, c: 1 } });
    expect(result.explainedBy).toEqual([1, 0]);
  });

  it('a lost update: each answer shows its own PATCH alone, and the read has lost one of them', () => {
    const writes = [patch({ a: 2 }, 0, 10, { a: 2, b: 1, c: 1 }), patch({ b: 2 }, 1, 11, { a: 1, b: 2, c: 1 })];
    const result = linearize(pipe(initial), writes, { value: { a: 1, b: 2, c: 1 } });
    expect(result.explainedBy).toBeUndefined();
    expect(result.tried).toEqual([
      {
        order: [0, 1],
        disagreement: {
          at: 'answer',
          write: 1,
          violations: [{ path: '/result/settings/a', expected: '2', actual: 1 }],
        },
      },
      {
        order: [1, 0],
        disagreement: {
          at: 'answer',
          write: 0,
          violations: [{ path: '/result/settings/b', expected: '2', actual: 1 }],
        },
      },
    ]);
  });

  it('a lost update the answers hide: the read after them shows one key as before', () => {
    const writes = [patch({ a: 2 }, 0, 10, { a: 2, b: 1, c: 1 }), patch({ b: 2 }, 1, 11, { a: 2, b: 2, c: 1 })];
    const result = linearize(pipe(initial), writes, { value: { a: 2, b: 1, c: 1 } });
    expect(result.explainedBy).toBeUndefined();
    expect(result.tried[0]).toEqual({
      order: [0, 1],
      disagreement: { at: 'read', violations: [{ path: '/result/b', expected: '2', actual: 1 }] },
    });
    expect(result.tried[1]?.disagreement).toMatchObject({ at: 'answer', write: 1 });
  });

  it('a key in common: the read must show the value of the PATCH an order puts last', () => {
    const writes = [
      patch({ a: 2, b: 5 }, 0, 10, { a: 2, b: 5, c: 1 }),
      patch({ b: 6, c: 3 }, 1, 11, { a: 2, b: 6, c: 3 }),
    ];
    expect(linearize(pipe(initial), writes, { value: { a: 2, b: 6, c: 3 } }).explainedBy).toEqual([0, 1]);
    expect(linearize(pipe(initial), writes, { value: { a: 2, b: 5, c: 3 } }).explainedBy).toBeUndefined();
  });
});

describe('complete updates of one alert sent at once', () => {
  const id = 'a1';
  const bodies = [completeAlertUpdate(1), completeAlertUpdate(2)];
  const updates = bodies.map((body, i) => ({ write: body, sent: i, answered: 10 + i, answer: alertRecord(id, body) }));
  const listed = (record: Json): Json[] => {
    const { savedSearch: _s, groupBy: _g, silenced: _x, ...entry } = record;
    return [{ id: 'other', name: 'other' }, entry];
  };

  it('the list shows one of them: explained by the order that puts it last', () => {
    const model = alertUpdatesModel(id, undefined);
    expect(linearize(model, updates, { value: listed(alertRecord(id, bodies[0]!)) }).explainedBy).toEqual([1, 0]);
    expect(alertOutcome(listed(alertRecord(id, bodies[0]!))[1], bodies).equalTo).toEqual([0]);
  });

  it('a half-applied alert: a mix of two updates is no order, and the outcome names whose field is whose', () => {
    const mix = { ...alertRecord(id, bodies[1]!), name: 'alert 1', threshold: 1 };
    const result = linearize(alertUpdatesModel(id, undefined), updates, { value: listed(mix) });
    expect(result.explainedBy).toBeUndefined();
    expect(result.tried.map((t) => t.disagreement)).toEqual([
      {
        at: 'read',
        violations: [
          { path: '/data/1/name', expected: '"alert 2"', actual: 'alert 1' },
          { path: '/data/1/threshold', expected: '2', actual: 1 },
        ],
      },
      {
        at: 'read',
        violations: expect.arrayContaining([{ path: '/data/1/message', expected: '"message 1"', actual: 'message 2' }]),
      },
    ]);
    const outcome = alertOutcome(listed(mix)[1], bodies);
    expect(outcome.equalTo).toEqual([]);
    expect(outcome.fieldsFrom).toMatchObject({ name: [0], threshold: [0], message: [1], source: [1] });
  });

  it('an answer that shows another update than its own is no order', () => {
    const crossed = [updates[0]!, { ...updates[1]!, answer: alertRecord(id, bodies[0]!) }];
    const result = linearize(alertUpdatesModel(id, undefined), crossed, { value: listed(alertRecord(id, bodies[0]!)) });
    expect(result.explainedBy).toBeUndefined();
    expect(result.tried.map((t) => t.disagreement?.at === 'answer' && t.disagreement.write)).toEqual([1, 1]);
  });
});

describe('renderLinearization', () => {
  const name = (index: number): string => `PATCH ${index + 1}`;

  it('names the explaining order, and for each order tried the first disagreement when none explains', () => {
    const initial = { a: 1, b: 1 };
    const writes = [patch({ a: 2 }, 0, 10, { a: 2, b: 1 }), patch({ b: 2 }, 1, 11, { a: 1, b: 2 })];
    expect(renderLinearization(linearize(pipe(initial), writes, { value: { a: 1, b: 2 } }), name)).toEqual([
      '2 orders tried, none explains what came back:',
      '- PATCH 1, then PATCH 2: the answer to PATCH 2, /result/settings/a: expected 2, got 1',
      '- PATCH 2, then PATCH 1: the answer to PATCH 1, /result/settings/b: expected 2, got 1',
    ]);
    const ordered = [write(1, 0, 10), write(2, 11, 15)];
    expect(renderLinearization(linearize(register, ordered, { value: 1 }), name)).toEqual([
      '1 order tried; 1 ruled out by when they were answered, none explains what came back:',
      '- PATCH 1, then PATCH 2: the read after them, the response: expected 2, got 1',
    ]);
    expect(renderLinearization(linearize(register, [write(1, 0, 10), write(2, 5, 15)], { value: 1 }), name)).toEqual([
      '2 orders tried: explained by PATCH 2, then PATCH 1',
    ]);
  });
});
