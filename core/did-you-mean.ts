/**
 * The Levenshtein distance between two strings: the fewest insertions, deletions and substitutions from one to the
 * other.
 */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate a mistyped word most likely meant: the nearest within a third of its length (at least 2 edits), else
 * the one candidate that contains it or that it contains (`request-id-v4` for `envelope.request-id-v4`); undefined when
 * none fits.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const target = word.toLowerCase();
  const limit = Math.max(2, Math.floor(target.length / 3));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(target, candidate.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { candidate, distance };
  }
  if (best) return best.candidate;
  const containing =
    target.length >= 3
      ? candidates.filter((c) => c.toLowerCase().includes(target) || target.includes(c.toLowerCase()))
      : [];
  return containing.length === 1 ? containing[0] : undefined;
}

/** ` (did you mean X?)` for the candidate a mistyped word most likely meant, or `` when none fits. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const match = closest(word, candidates);
  return match === undefined ? '' : ` (did you mean ${match}?)`;
}
