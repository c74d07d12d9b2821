/**
 * The kinds of text a JSON string may hold that the coverage tells apart (RULES.md: text over all a JSON string holds),
 * each with how a string shows it; a string may be of several kinds.
 */
const KINDS = Object.freeze({
  empty: (text: string) => text === '',
  'whitespace at the ends': (text: string) => /^\s|\s$/u.test(text),
  'whitespace other than a space': (text: string) => /[^\S ]/u.test(text),
  'markup and quote characters': (text: string) => /[<>&"']/.test(text),
  'non-ASCII characters': (text: string) => [...text].some((char) => char.codePointAt(0)! > 0x7f),
  'characters outside the Basic Multilingual Plane': (text: string) => /[\u{10000}-\u{10ffff}]/u.test(text),
  'long text (1,000 characters or more)': (text: string) => text.length >= 1_000,
  // With the u flag a surrogate matches only when it is alone.
  'a lone surrogate': (text: string) => /[\ud800-\udfff]/u.test(text),
});

/** Every kind of text, in the order the coverage lists them. */
export const TEXT_KIND_NAMES: readonly string[] = Object.freeze(Object.keys(KINDS));

/** The kinds of text `text` is. */
export function textKindsOf(text: string): string[] {
  return Object.entries(KINDS)
    .filter(([, shows]) => shows(text))
    .map(([kind]) => kind);
}
