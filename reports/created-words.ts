import type { CreatedResource } from '../run/run-report-types.ts';

/** How many writes an entry of the list stands for. */
export const timesOf = (entry: CreatedResource): number => entry.times ?? 1;

/**
 * What a run did on the target, in words, created and changed apart: `77 resource(s) created, 119 change(s) made` (a
 * change is an update of a resource, the run's own or one it was given, not a resource of its own).
 */
export function createdWords(created: readonly CreatedResource[]): string {
  const count = (kind: CreatedResource['kind']): number =>
    created.filter((c) => c.kind === kind).reduce((n, c) => n + timesOf(c), 0);
  const made = count('created');
  const changed = count('changed');
  return [
    ...(made > 0 ? [`${made} resource(s) created`] : []),
    ...(changed > 0 ? [`${changed} change(s) made`] : []),
  ].join(', ');
}

/**
 * The list of what a run did, with the writes that did the same (one kind of write of one resource by one operation
 * and probe) as one entry that says how many times, in the order each was first done.
 */
export function createdList(created: readonly CreatedResource[]): CreatedResource[] {
  const byWrite = new Map<string, CreatedResource>();
  for (const entry of created) {
    const key = JSON.stringify([entry.kind, entry.id, entry.operation, entry.note]);
    const had = byWrite.get(key);
    const { times: _times, ...plain } = entry;
    const times = (had ? timesOf(had) : 0) + timesOf(entry);
    byWrite.set(key, times > 1 ? { ...plain, times } : plain);
  }
  return [...byWrite.values()];
}

/** An entry's note as a list shows it: with how many times, where more than one write did it. */
export const createdNote = (entry: CreatedResource): string =>
  entry.times === undefined ? entry.note : `${entry.note} (${entry.times} times)`;
