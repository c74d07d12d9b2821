import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startReference, type ReferenceTarget } from '../reference/server.ts';

let target: ReferenceTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

/** The settings of a running target by variable. */
const settingsOf = (t: ReferenceTarget): Record<string, string> => Object.assign({}, ...t.apis.map((a) => a.settings));

const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** The status of a GET of the backup and of the usage cost, as a key reads them under an organization and service. */
async function reads(env: Record<string, string>, auth: string, organizationId: string, serviceId: string) {
  const org = `${env.MANAGEMENT_BASE_URL}/v1/organizations/${organizationId}`;
  const headers = { authorization: auth };
  const backup = await fetch(`${org}/services/${serviceId}/backups/${env.BACKUP_ID}`, { headers });
  const usage = await fetch(`${org}/usageCost?from_date=2026-01-01&to_date=2026-01-02`, { headers });
  return [backup.status, usage.status];
}

/** The ids of the alerts a token lists. */
async function listed(env: Record<string, string>, token: string): Promise<string[]> {
  const reply = await fetch(`${env.ALERTS_BASE_URL}/api/v2/alerts`, { headers: { authorization: `Bearer ${token}` } });
  return ((await reply.json()) as { data: { id: string }[] }).data.map((a) => a.id);
}

describe('the reference target serves two organizations and two teams', () => {
  it('scopes each key to its organization, the backup to its service, and each token to its team', async () => {
    target = await startReference();
    const env = settingsOf(target);
    const own = basic(env.MANAGEMENT_KEY_ID!, env.MANAGEMENT_KEY_SECRET!);
    const other = basic(env.OTHER_MANAGEMENT_KEY_ID!, env.OTHER_MANAGEMENT_KEY_SECRET!);
    expect(await reads(env, own, env.ORGANIZATION_ID!, env.SERVICE_ID!)).toEqual([200, 200]);
    expect(await reads(env, own, randomUUID(), env.SERVICE_ID!)).toEqual([404, 404]);
    expect(await reads(env, own, env.OTHER_ORGANIZATION_ID!, env.SERVICE_ID!)).toEqual([404, 404]);
    expect(await reads(env, own, env.ORGANIZATION_ID!, randomUUID())).toEqual([404, 200]);
    expect(await reads(env, other, env.ORGANIZATION_ID!, env.SERVICE_ID!)).toEqual([404, 404]);
    expect((await reads(env, other, env.OTHER_ORGANIZATION_ID!, env.SERVICE_ID!))[1]).toBe(200);
    const mine = await listed(env, env.ALERTS_TOKEN!);
    const theirs = await listed(env, env.OTHER_ALERTS_TOKEN!);
    expect(mine).toEqual(target.alertIds);
    expect(theirs).toHaveLength(2);
    expect(theirs.filter((id) => mine.includes(id))).toEqual([]);
    const update = await fetch(`${env.ALERTS_BASE_URL}/api/v2/alerts/${mine[0]}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${env.OTHER_ALERTS_TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(update.status).toBe(404);
  });

  it('lets each scope fault through what the clean target refuses', async () => {
    const cases: [string, (env: Record<string, string>) => Promise<unknown>, unknown][] = [
      ['organization-ignored', (env) => reads(env, ownOf(env), randomUUID(), env.SERVICE_ID!), [200, 200]],
      ['backup-any-service', (env) => reads(env, ownOf(env), env.ORGANIZATION_ID!, randomUUID()), [200, 200]],
      [
        'other-org-key-accepted',
        (env) =>
          reads(
            env,
            basic(env.OTHER_MANAGEMENT_KEY_ID!, env.OTHER_MANAGEMENT_KEY_SECRET!),
            env.ORGANIZATION_ID!,
            env.SERVICE_ID!,
          ),
        [200, 200],
      ],
      ['other-team-token-reads', async (env) => (await listed(env, env.OTHER_ALERTS_TOKEN!)).length, 6],
    ];
    for (const [fault, probe, expected] of cases) {
      target = await startReference({ faults: [fault] });
      expect(await probe(settingsOf(target)), fault).toEqual(expected);
      await target.close();
      target = undefined;
    }
  });
});

const ownOf = (env: Record<string, string>): string => basic(env.MANAGEMENT_KEY_ID!, env.MANAGEMENT_KEY_SECRET!);
