/** What kind of sentence of a contract document a statement is. */
export type StatementKind = 'field' | 'table-row' | 'rule' | 'bullet' | 'sentence' | 'not-shown';

/** One normative statement of a contract document, with an id built from where it stands, not from its line number. */
export interface Statement {
  /** `document:section.subsection.key`, e.g. `management:resources.source-broker.credentials`. */
  readonly id: string;
  readonly document: string;
  readonly kind: StatementKind;
  /** The statement as the document words it (a table row's cells joined by ` | `). */
  readonly text: string;
  /** The line it stands on, for a reader; never part of the id. */
  readonly line: number;
}

/**
 * Headings of sections whose tables describe fields; a row of another table is a `table-row` (a limit, a state, an
 * endpoint).
 */
const FIELD_SECTION = 'resources';

/**
 * Words of a sentence or item that make its key: enough to tell it from its neighbours, few enough to survive a reword.
 */
const KEY_WORDS = 4;

/** A lowercase, hyphenated form of a text: letters and digits only. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A heading's or label's name without what it says in parentheses (`Pipe (response \`result\`)` is `pipe`). */
function sectionName(text: string): string {
  return slug(text.replace(/\(.*?\)/g, ' ').replace(/:$/, ''));
}

function keyOf(text: string): string {
  return slug(text.replace(/`/g, ' ')).split('-').filter(Boolean).slice(0, KEY_WORDS).join('-');
}

function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());
}

/** Sentences of a paragraph line: a full stop followed by a space and a capital letter or a code span ends one. */
function sentencesOf(line: string): string[] {
  return line
    .split(/(?<=\.)\s+(?=[A-Z`])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Keys that make each row of a table distinct: the first cell, or as many leading cells as it takes. */
function rowKeys(rows: readonly string[][]): string[] {
  for (let width = 1; width <= (rows[0]?.length ?? 1); width += 1) {
    const keys = rows.map((cells) => slug(cells.slice(0, width).join(' ')));
    if (new Set(keys).size === keys.length) return keys;
  }
  return rows.map((cells) => slug(cells.join(' ')));
}

const NOT_SHOWN = /not shown/i;

/**
 * Parses a contract document (Markdown-like text: headings, tables, bullets, numbered items, paragraphs) into its
 * statements. The document's name is the first word of its title. Every line of content is a statement, so that a
 * line added to a document shows up as a statement of its own; a table row that says something is "not shown" adds a
 * `not-shown` statement beside the row.
 */
export function parseStatements(text: string): Statement[] {
  const lines = text.split(/\r?\n/);
  const title = lines.find((line) => line.startsWith('# ')) ?? '# document';
  const document = slug(title.slice(2).split(/\s/)[0] ?? 'document');
  const statements: Statement[] = [];
  const used = new Set<string>();
  let chapter = 'intro';
  let section = '';
  let label = '';
  let table: { header: boolean; rows: { cells: string[]; line: number }[] } | undefined;

  const prefix = () => [chapter, section, label].filter(Boolean).join('.');
  const add = (key: string, kind: StatementKind, body: string, line: number) => {
    const base = `${document}:${prefix()}.${key}`;
    let id = base;
    for (let n = 2; used.has(id); n += 1) id = `${base}-${n}`;
    used.add(id);
    statements.push({ id, document, kind, text: body, line });
  };
  const flushTable = () => {
    if (!table) return;
    const keys = rowKeys(table.rows.map((row) => row.cells));
    table.rows.forEach((row, index) => {
      const key = keys[index] ?? String(index);
      const body = row.cells.join(' | ');
      add(key, chapter === FIELD_SECTION ? 'field' : 'table-row', body, row.line);
      if (NOT_SHOWN.test(body)) add(`${key}.not-shown`, 'not-shown', body, row.line);
    });
    table = undefined;
  };

  lines.forEach((raw, index) => {
    const line = raw.trim();
    const number = index + 1;
    if (!line.startsWith('|')) flushTable();
    if (line === '' || line.startsWith('# ')) return;
    const heading = /^(#{2,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]?.length ?? 2;
      const name = sectionName(heading[2] ?? '');
      if (level === 2) {
        chapter = name.split('-')[0] ?? name;
        section = '';
      } else section = name;
      label = '';
      return;
    }
    if (line.startsWith('|')) {
      table ??= { header: true, rows: [] };
      if (table.header) {
        if (/^\|[\s|:-]+\|$/.test(line)) table.header = false;
        return;
      }
      table.rows.push({ cells: cellsOf(line), line: number });
      return;
    }
    if (/^`[^`]+`$/.test(line) || (/:$/.test(line) && line.length <= 40)) {
      label = sectionName(line.replace(/`/g, ''));
      return;
    }
    const item = /^(?:[-*]|\d+\.)\s+(.*)$/.exec(line);
    if (item) {
      const body = item[1] ?? '';
      add(keyOf(body), NOT_SHOWN.test(body) ? 'not-shown' : /^\d/.test(line) ? 'rule' : 'bullet', body, number);
      return;
    }
    for (const sentence of sentencesOf(line))
      add(keyOf(sentence), NOT_SHOWN.test(sentence) ? 'not-shown' : 'sentence', sentence, number);
  });
  flushTable();
  return statements;
}
