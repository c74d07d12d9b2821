import { describe, expect, it } from 'vitest';
import { createRequestGate } from '../transport/request-gate.ts';

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

describe('request gate order', () => {
  it('gives a free slot to a chain step (a lane) before requests queued earlier that are not', async () => {
    const gate = createRequestGate({ concurrency: 1, maxRps: 0, deadline: Date.now() + 60_000 });
    const order: string[] = [];
    let open = (): void => undefined;
    const first = gate.admit(() => new Promise<void>((resolve) => (open = resolve)));
    const queued = [
      gate.admit(async () => order.push('bulk 1')),
      gate.admit(async () => order.push('bulk 2')),
      gate.admit(async () => order.push('chain step'), { lane: 'chain' }),
      gate.admit(async () => order.push('bulk 3')),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    open();
    await Promise.all([first, ...queued]);
    expect(order).toEqual(['chain step', 'bulk 1', 'bulk 2', 'bulk 3']);
    expect(gate.sent()).toBe(5);
  });
});

describe('request gate lanes', () => {
  const held = () => {
    const ends: (() => void)[] = [];
    const started: string[] = [];
    const slow = (name: string) => () =>
      new Promise<string>((resolve) => {
        started.push(name);
        ends.push(() => resolve(name));
      });
    return { ends, started, slow };
  };
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('keeps a slot for an open lane with nothing in flight, so that its next step starts at once', async () => {
    const gate = createRequestGate({ concurrency: 3, maxRps: 0, deadline: Date.now() + 60_000 });
    const { ends, started, slow } = held();
    gate.openLane('alerts');
    const bulk = ['b1', 'b2', 'b3'].map((name) => gate.admit(slow(name)));
    await tick();
    expect(started).toEqual(['b1', 'b2']);
    const step = gate.admit(slow('step'), { lane: 'alerts' });
    await tick();
    expect(started).toEqual(['b1', 'b2', 'step']);
    // With the lane's step in flight no slot is kept: the first slot that frees goes to the bulk.
    ends.shift()!();
    await tick();
    expect(started).toEqual(['b1', 'b2', 'step', 'b3']);
    gate.closeLane('alerts');
    while (ends.length > 0) ends.shift()!();
    await Promise.all([...bulk, step]);
    expect(gate.sent()).toBe(4);
  });

  it('gives the kept slot back when the lane closes', async () => {
    const gate = createRequestGate({ concurrency: 2, maxRps: 0, deadline: Date.now() + 60_000 });
    const { ends, started, slow } = held();
    gate.openLane('pipes');
    const bulk = ['b1', 'b2'].map((name) => gate.admit(slow(name)));
    await tick();
    expect(started).toEqual(['b1']);
    gate.closeLane('pipes');
    await tick();
    expect(started).toEqual(['b1', 'b2']);
    for (const end of ends) end();
    await Promise.all(bulk);
  });

  it('keeps at most concurrency - 1 slots, so that a concurrency of 1 still sends', async () => {
    const gate = createRequestGate({ concurrency: 1, maxRps: 0, deadline: Date.now() + 60_000 });
    gate.openLane('pipes');
    gate.openLane('alerts');
    expect(await gate.admit(send('bulk'))).toEqual({ ok: true, value: 'bulk' });
    expect(await gate.admit(send('pipes step'), { lane: 'pipes' })).toEqual({ ok: true, value: 'pipes step' });
  });
});

describe('requests admitted together', () => {
  it('starts a group in one tick once its slots are free, two groups never holding part of each other', async () => {
    const gate = createRequestGate({ concurrency: 3, maxRps: 0, deadline: Date.now() + 60_000 });
    const started: string[] = [];
    const ends: (() => void)[] = [];
    const slow = (name: string) => () =>
      new Promise<string>((resolve) => {
        started.push(name);
        ends.push(() => resolve(name));
      });
    const busy = gate.admit(slow('busy'));
    const a = gate.admitTogether([slow('a1'), slow('a2'), slow('a3')]);
    const b = gate.admitTogether([slow('b1'), slow('b2')]);
    await new Promise((resolve) => setImmediate(resolve));
    // Group a holds two slots and waits for the third; group b waits for a to gather all of its own.
    expect(started).toEqual(['busy']);
    ends.shift()!();
    await busy;
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['busy', 'a1', 'a2', 'a3']);
    for (const end of ends.splice(0)) end();
    expect(await a).toEqual({ ok: true, values: ['a1', 'a2', 'a3'] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(started.slice(4)).toEqual(['b1', 'b2']);
    for (const end of ends.splice(0)) end();
    expect(await b).toEqual({ ok: true, values: ['b1', 'b2'] });
    expect(gate.sent()).toBe(6);
  });

  it('refuses a group whole when --max-requests leaves less than all of it', async () => {
    const gate = createRequestGate({ concurrency: 4, maxRps: 0, maxRequests: 3, deadline: Date.now() + 60_000 });
    expect(await gate.admit(send('one'))).toEqual({ ok: true, value: 'one' });
    expect(await gate.admitTogether([send('a'), send('b'), send('c')])).toEqual({ ok: false, refusal: 'budget' });
    expect(await gate.admitTogether([send('a'), send('b')])).toEqual({ ok: true, values: ['a', 'b'] });
    expect(gate.sent()).toBe(3);
  });
});

describe('request gate put-backs', () => {
  it('keeps `putBacks` of --max-requests for put-backs: others are refused first, the total stays within', async () => {
    const gate = createRequestGate({
      concurrency: 4,
      maxRps: 0,
      deadline: Date.now() + 60_000,
      maxRequests: 5,
      putBacks: 2,
    });
    expect(await gate.admit(send('restore'), { restores: true })).toEqual({ ok: true, value: 'restore' });
    expect(await gate.admitTogether([send('a'), send('b')])).toEqual({ ok: true, values: ['a', 'b'] });
    expect(gate.remaining()).toBe(1);
    expect(await gate.admitTogether([send('c'), send('d')])).toEqual({ ok: false, refusal: 'budget' });
    expect(await gate.admit(send('c'))).toEqual({ ok: true, value: 'c' });
    expect(await gate.admit(send('d'))).toEqual({ ok: false, refusal: 'budget' });
    expect(gate.remaining()).toBe(0);
    expect(await gate.admit(send('restore'), { restores: true })).toEqual({ ok: true, value: 'restore' });
    // A put-back more than were kept takes what is left of --max-requests, and no more.
    expect(await gate.admit(send('restore'), { restores: true })).toEqual({ ok: false, refusal: 'budget' });
    expect(gate.sent()).toBe(5);
  });
});

describe('request gate rate across gates', () => {
  it('starts where the gate before it left --max-rps off (the preflight, then the run)', async () => {
    const first = createRequestGate({ concurrency: 2, maxRps: 5, deadline: Date.now() + 60_000 });
    expect(first.nextStart()).toBe(0);
    await first.admit(send('last GET'));
    const lastStart = Date.now();
    expect(first.nextStart()).toBeGreaterThanOrEqual(lastStart + 150);
    const next = createRequestGate({
      concurrency: 2,
      maxRps: 5,
      deadline: Date.now() + 60_000,
      notBefore: first.nextStart(),
    });
    await next.admit(send('first probe'));
    expect(Date.now() - lastStart).toBeGreaterThanOrEqual(150);
    expect(createRequestGate({ concurrency: 1, maxRps: 0, deadline: Date.now() + 60_000 }).nextStart()).toBe(0);
  });
});
