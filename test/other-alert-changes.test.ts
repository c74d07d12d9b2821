import { describe, expect, it } from 'vitest';
import { otherAlertChanges } from '../rules/sequence.ts';

const BEFORE = Object.freeze({
  id: 'a1',
  name: 'Low throughput',
  threshold: 10,
  state: 'OK',
  team: 't1',
  createdAt: '2026-08-28T10:00:00.000Z',
  updatedAt: '2026-11-26T10:00:00.000Z',
  channel: { type: 'webhook', webhookId: 'w1' },
});

describe('another alert, against how it was listed before the updates', () => {
  it('may have moved its state and updatedAt, which the target sets on its own (transitions are not shown)', () => {
    const evaluated = { ...BEFORE, state: 'ALERT', updatedAt: '2026-11-26T10:00:01.000Z' };
    expect(otherAlertChanges(BEFORE, evaluated, '/data/0')).toEqual([]);
    const evaluatedBack = { ...BEFORE, updatedAt: '2026-11-26T10:00:02.000Z' };
    expect(otherAlertChanges(BEFORE, evaluatedBack, '/data/0')).toEqual([]);
  });

  it('changed when anything a client writes, or its identity, reads otherwise', () => {
    expect(otherAlertChanges(BEFORE, { ...BEFORE, threshold: 99 }, '/data/0')).toEqual([
      expect.objectContaining({ path: '/data/0/threshold', actual: 99 }),
    ]);
    expect(otherAlertChanges(BEFORE, { ...BEFORE, channel: { type: 'webhook', webhookId: 'w2' } }, '')).not.toEqual([]);
    expect(otherAlertChanges(BEFORE, { ...BEFORE, createdAt: '2026-11-26T10:00:00.000Z' }, '')).not.toEqual([]);
    const { name: _name, ...nameless } = BEFORE;
    expect(otherAlertChanges(BEFORE, nameless, '')).not.toEqual([]);
  });
});
