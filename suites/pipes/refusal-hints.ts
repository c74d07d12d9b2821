/** A number as a refusal writes one: digits, a sign, a fraction. */
const NUMBER = /-?\d+(?:\.\d+)?/g;
/** Words that put the lowest allowed value next (`from 690 to 1020`, `between 1 and 40`, `at least 500`). */
const LOWEST = /\b(?:from|between|least|min(?:imum)?)\b|>=?|≥/i;
/** Words that put the highest allowed value next (`at most 40`, `maximum 8`). */
const HIGHEST = /\b(?:most|max(?:imum)?|up to)\b|<=?|≤/i;

/** The last step of a dotted path: the name a refusal gives the field by. */
const leafOf = (path: string): string => path.slice(path.lastIndexOf('.') + 1);

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a refusal's words name any of `names` (field names), each as a whole word. */
export function namesAny(text: string, names: readonly string[]): boolean {
  return names.some((name) => new RegExp(`(?<![\\w])${escaped(name)}(?![\\w])`).test(text));
}

/**
 * What a refusal says of the fields at `paths`: for each field it names (by the last step of its path, as a whole
 * word), a value it gives for it, the lowest allowed where its words say which one that is (`must be a whole number
 * from 690 to 1020`: 690), else the highest, else the first number said of the field. Only an observe probe may try
 * such a value; it is learned only if the target then accepts it (RULES.md: a must-accept value comes from what the
 * target answered or accepted). What is said of a field runs to the next `;` or line, or to the next field named; the
 * value the refused request sent there (`sent`) is never the one given (`got 0`).
 */
export function refusalHints(
  text: string,
  paths: readonly string[],
  sent: (path: string) => unknown = () => undefined,
): Map<string, number> {
  const mentions = paths
    .flatMap((path) =>
      [...text.matchAll(new RegExp(`(?<![\\w])${escaped(leafOf(path))}(?![\\w])`, 'g'))].map((match) => ({
        path,
        start: match.index,
        end: match.index + match[0].length,
      })),
    )
    .sort((a, b) => a.start - b.start);
  const hints = new Map<string, number>();
  mentions.forEach(({ path, end }, i) => {
    if (hints.has(path)) return;
    const said = text.slice(end, mentions[i + 1]?.start ?? text.length).split(/[;\n]|\\n/)[0]!;
    const other = (value: number): boolean => value !== sent(path);
    const value = LOWEST.test(said)
      ? after(said, LOWEST, other)
      : HIGHEST.test(said)
        ? after(said, HIGHEST, other)
        : first(said, other);
    if (value !== undefined) hints.set(path, value);
  });
  return hints;
}

/** The first number `wanted` after the words `words` match in `said`. */
function after(said: string, words: RegExp, wanted: (value: number) => boolean): number | undefined {
  const match = words.exec(said);
  return match ? first(said.slice(match.index + match[0].length), wanted) : undefined;
}

/** The first finite number in `said` that is `wanted`. */
function first(said: string, wanted: (value: number) => boolean): number | undefined {
  for (const [digits] of said.matchAll(NUMBER)) {
    const value = Number(digits);
    if (Number.isFinite(value) && wanted(value)) return value;
  }
  return undefined;
}
