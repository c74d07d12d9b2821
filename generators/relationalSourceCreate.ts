import * as fc from 'fast-check';
import { credentials, type SourceCredentials } from './credentials.ts';
import { identifier } from './identifier.ts';
import { relationalSettings, type RelationalSettings } from './relationalSettings.ts';
import { tableMappings, type TableMapping } from './tableMappings.ts';

/** The `relational` object of a create body. */
export type RelationalSourceCreate = {
  host: string;
  port: number;
  database: string;
  credentials: SourceCredentials;
  settings: RelationalSettings;
  tableMappings: TableMapping[];
};

/**
 * Complete relational sources for create (`{ relational, validateSamples }`): host, port, database, secret credentials,
 * all nine settings and 1..`maxTableMappings` complete table mappings.
 */
export function relationalSourceCreate(
  constraints: { maxTableMappings?: number } = {},
): fc.Arbitrary<{ relational: RelationalSourceCreate; validateSamples: boolean }> {
  const { maxTableMappings = 3 } = constraints;
  const relational = fc.record(
    {
      host: identifier({ maxLength: 12 }).map((name) => `${name}.db.example.com`),
      port: fc.oneof(fc.constantFrom(5432, 3306), fc.integer({ min: 1024, max: 65535 })),
      database: identifier(),
      credentials: credentials(),
      settings: relationalSettings({ operation: 'create' }),
      tableMappings: tableMappings({ minLength: 1, maxLength: Math.max(1, maxTableMappings) }),
    },
    { noNullPrototype: true },
  );
  return fc.record({ relational, validateSamples: fc.boolean() }, { noNullPrototype: true });
}
