import type { CreatedResource } from '../run/run-report-types.ts';

/**
 * What a run did on the target, in words, created and changed apart: `77 resource(s) created, 119 change(s) made` (a
 * change is an update of a resource, the run's own or one it was given, not a resource of its own).
 */
export function createdWords(created: readonly CreatedResource[]): string {
  const made = created.filter((c) => c.kind === 'created').length;
  const changed = created.length - made;
  return [
    ...(made > 0 ? [`${made} resource(s) created`] : []),
    ...(changed > 0 ? [`${changed} change(s) made`] : []),
  ].join(', ');
}
