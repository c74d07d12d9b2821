import { describe, expect, it } from 'vitest';
import { preflightPlan } from '../engine/preflight-plan.ts';
import { targetLine } from '../cli/target-line.ts';
import { resolveConfig } from '../settings/config.ts';
import { RULE_IDS } from '../rules/index.ts';

const line = (argv: string[], env: Record<string, string>): string => targetLine(resolveConfig(argv, env, RULE_IDS));

describe('the first line of a run says which target it tests', () => {
  it('names the embedded reference target with its faults and modes', () => {
    const every = '; probe classes read, write, disruptive (every class)';
    expect(line([], {})).toBe(`Testing the embedded reference target (faults: none)${every}`);
    expect(line(['--reference-fault', 'keys-secret-missing', '--reference-mode', 'slow'], {})).toBe(
      `Testing the embedded reference target (faults: keys-secret-missing; modes: slow)${every}`,
    );
  });

  it('names each API under test by its URL, and the API left out with the reason', () => {
    const management = {
      MANAGEMENT_BASE_URL: 'https://api.example.test/',
      MANAGEMENT_KEY_ID: 'k',
      MANAGEMENT_KEY_SECRET: 's',
      ORGANIZATION_ID: 'o',
      SERVICE_ID: 's',
    };
    const safe =
      '; probe classes read, write; left out by default against a configured target: disruptive (the ' +
      "service's stop and start), run only when --allow names it";
    expect(line([], management)).toBe(
      'Testing management API at https://api.example.test (not under test: alerts API, ALERTS_BASE_URL ' +
        `(--alerts-url) is not set)${safe}`,
    );
    expect(line(['--alerts-url', 'https://alerts.example.test'], { ...management, ALERTS_TOKEN: 't' })).toBe(
      `Testing management API at https://api.example.test, alerts API at https://alerts.example.test${safe}`,
    );
    expect(line(['--allow', 'read'], management)).toMatch(
      /; probe classes read; left out by --allow: write \(creates and changes\), disruptive \(the service's stop and/,
    );
  });

  it("the dry run lists the preflight's GETs, and says how SERVICE_ID is checked without BACKUP_ID", () => {
    const management = {
      MANAGEMENT_BASE_URL: 'https://api.example.test',
      MANAGEMENT_KEY_ID: 'k',
      MANAGEMENT_KEY_SECRET: 's',
      ORGANIZATION_ID: 'o',
      SERVICE_ID: 's',
    };
    expect(preflightPlan(resolveConfig([], {}, RULE_IDS))).toBeUndefined();
    expect(preflightPlan(resolveConfig([], management, RULE_IDS))).toMatch(
      new RegExp(
        String.raw`^Preflight, before the first probe: GET usageCost .*ORGANIZATION_ID\); ` +
          String.raw`a setting it finds wrong stops the run with exit code 2\. ` +
          'Without BACKUP_ID no read can check SERVICE_ID: when the run creates pipes, ' +
          'the preflight sends one pipe create',
      ),
    );
    const full = resolveConfig(
      [],
      {
        ...management,
        BACKUP_ID: 'b',
        ALERTS_BASE_URL: 'https://alerts.example.test',
        ALERTS_TOKEN: 't',
        ALERT_ID: 'a',
      },
      RULE_IDS,
    );
    expect(preflightPlan(full)).toBe(
      'Preflight, before the first probe: GET usageCost of the past day (MANAGEMENT_KEY_ID, ' +
        'MANAGEMENT_KEY_SECRET, ORGANIZATION_ID); GET the backup (SERVICE_ID, BACKUP_ID); GET /api/v2/alerts ' +
        '(ALERTS_TOKEN, ALERT_ID listed and updatable); a setting it finds wrong stops the run with exit ' +
        'code 2.',
    );
  });
});
