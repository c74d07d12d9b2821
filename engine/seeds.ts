/** Derives a property's seed from the run's seed and the property's name (FNV-1a), so that each replays alone. */
export function propertySeed(runSeed: number, property: string): number {
  let hash = 0x811c9dc5 ^ runSeed;
  for (let i = 0; i < property.length; i += 1) {
    hash ^= property.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) & 0x7fffffff;
}
