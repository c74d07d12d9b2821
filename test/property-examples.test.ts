import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestGate } from '../transport/request-gate.ts';
import { pipeCreateBody } from '../generators/index.ts';
import { forEachExample, propertyExamples } from '../engine/property-examples.ts';
import type { Example } from '../engine/suite-types.ts';

describe("a property's examples, drawn as the gate can send them", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('draws the same values as fc.sample, in the same order', () => {
    const arbitrary = pipeCreateBody({ kind: 'relational' });
    const drawn = [...propertyExamples('p', arbitrary, 42, 150)];
    expect(drawn.map((e) => e.value)).toEqual(fc.sample(arbitrary, { seed: 42, numRuns: 150 }));
    expect(drawn.map((e) => e.example.index)).toEqual([...Array(150).keys()]);
  });

  it('keeps what waits for the gate and what is drawn ' +
    'ahead to the width, however many examples there are', async () => {
    const width = 4;
    for (const count of [40, 1200]) {
      const gate = createRequestGate({ concurrency: 2, maxRps: 0, deadline: Date.now() + 60_000 });
      let handedOut = 0;
      let done = 0;
      let mostOut = 0;
      const examples = propertyExamples('p', fc.nat(), 7, count);
      const counted: Iterator<Example<number>> = {
        next: () => {
          const next = examples.next();
          if (!next.done) handedOut += 1;
          mostOut = Math.max(mostOut, handedOut - done);
          return next;
        },
      };
      await forEachExample(counted, width, async (example) => {
        const outcome = await gate.admit(() =>
          fetch(`${url}/?n=${example.value}`, { method: 'POST', body: '{}' }).then((res) => res.text()),
        );
        done += 1;
        return outcome;
      });
      expect(gate.sent()).toBe(count);
      // Two in flight, the rest of the width waiting: never the whole property.
      expect(gate.waiting().peak).toBeLessThanOrEqual(width - 2);
      expect(mostOut).toBeLessThanOrEqual(width);
    }
  }, 60_000);

  it(
    'stops drawing at the first probe that throws, and ' + 'throws its error once the probes under way are done',
    async () => {
      let probed = 0;
      const run = forEachExample(propertyExamples('p', fc.nat(), 7, 1000), 3, async (example) => {
        probed += 1;
        await new Promise((resolve) => setImmediate(resolve));
        if (example.example.index === 5) throw new Error('probe 5 broke');
      });
      await expect(run).rejects.toThrow('probe 5 broke');
      expect(probed).toBeLessThan(10);
    },
  );
});
