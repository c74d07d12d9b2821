import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../settings/config.ts';
import { loadShippedSpecs } from '../spec/prepared-specs.ts';
import { prepareRun } from '../engine/prepare-run.ts';
import { suiteStates } from '../engine/run-suites.ts';
import { judgeSuite, suiteOperations, verdictCount } from '../engine/suite-verdicts.ts';
import { RULE_IDS } from '../rules/index.ts';
import { SUITES } from '../suites/index.ts';

const specs = await loadShippedSpecs();
const config = resolveConfig([], {}, RULE_IDS);
const run = await prepareRun({ config }, specs, SUITES);
const redact = (text: string): string => text.replaceAll('s3cr3t-value', '***');

describe('a suite judged once its groups are through', () => {
  it('reaches one verdict per operation and rule that concerns it, in the order the adapter declares them', () => {
    const [state] = suiteStates([SUITES[0]!()], undefined);
    const judged = judgeSuite(run, specs, state!, redact);
    const declared = suiteOperations(specs, state!.definition).flatMap(({ operation, rules }) =>
      rules.map((rule) => `${rule.id} ${operation.operationId}`),
    );
    expect(judged.errors).toEqual([]);
    expect(judged.results).toHaveLength(verdictCount(specs, [state!.definition]));
    expect(judged.results.map((result) => `${result.rule} ${result.operationId}`)).toEqual(declared);
    expect(judged.report.suite).toBe(state!.definition.name);
  });

  it('reaches none when one of its groups threw: the error, redacted, names the suite and what was not reached', () => {
    const [state] = suiteStates([SUITES[0]!()], undefined);
    state!.failure = new Error('the target sent s3cr3t-value back');
    const judged = judgeSuite(run, specs, state!, redact);
    expect(judged.results).toEqual([]);
    expect(judged.errors).toHaveLength(1);
    expect(judged.errors[0]).toMatch(
      new RegExp(
        `^${state!.definition.name}: Error: the target sent \\*\\*\\* back[\\s\\S]*\\(its ` +
          `${verdictCount(specs, [state!.definition])} verdict\\(s\\) were not reached\\)$`,
      ),
    );
    expect(judged.errors[0]).not.toContain('s3cr3t-value');
  });
});
