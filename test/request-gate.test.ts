import { describe, expect, it } from 'vitest';
import { createRequestGate } from '../core/request-gate.ts';

const send = (value: string) => () => Promise.resolve(value);

describe('request gate interrupt', () => {
  it('refuses every new request but restores once interrupted, and lets the ones in flight finish', async () => {
    const gate = createRequestGate({ concurrency: 1, maxRps: 0, deadline: Date.now() + 60_000 });
    let finish!: () => void;
    const inFlight = gate.admit(
      () =>
        new Promise<string>((resolve) => {
          finish = () => resolve('in flight');
        }),
    );
    const queued = gate.admit(send('queued'));
    const queuedRestore = gate.admit(send('queued restore'), { restores: true });
    await new Promise((resolve) => setImmediate(resolve));
    gate.interrupt();
    expect(gate.interrupted.aborted).toBe(true);
    finish();
    expect(await inFlight).toEqual({ ok: true, value: 'in flight' });
    expect(await queued).toEqual({ ok: false, refusal: 'interrupted' });
    expect(await queuedRestore).toEqual({ ok: true, value: 'queued restore' });
    expect(await gate.admit(send('new'))).toEqual({ ok: false, refusal: 'interrupted' });
    expect(await gate.admit(send('restore'), { restores: true })).toEqual({ ok: true, value: 'restore' });
    expect(gate.sent()).toBe(3);
  });

  it('ends a wait for the rate limit at the interrupt instead of sending after it', async () => {
    const gate = createRequestGate({ concurrency: 4, maxRps: 1, deadline: Date.now() + 60_000 });
    expect(await gate.admit(send('first'))).toEqual({ ok: true, value: 'first' });
    const started = Date.now();
    const waiting = gate.admit(send('second'));
    setTimeout(() => gate.interrupt(), 50);
    expect(await waiting).toEqual({ ok: false, refusal: 'interrupted' });
    expect(Date.now() - started).toBeLessThan(900);
  });
});
