import { expect, test } from 'vitest';

// The engine floor: what vitest costs a run with nothing in it but one trivial test (see bench/engine-floor.ts).
test('one trivial test', () => {
  expect(1 + 1).toBe(2);
});
