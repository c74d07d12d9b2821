/**
 * Picks entries of a named table by name, once each; throws an Error naming an unknown name and listing the valid ones.
 */
export function selectNamed<T extends { readonly name: string }>(
  table: readonly T[],
  names: readonly string[],
  what: string,
): readonly T[] {
  return [...new Set(names)].map((name) => {
    const found = table.find((entry) => entry.name === name);
    if (found === undefined)
      throw new Error(`Unknown ${what} "${name}". Valid ${what}s: ${table.map((entry) => entry.name).join(', ')}`);
    return found;
  });
}
