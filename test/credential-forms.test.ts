import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIAL_FORMS } from '../rules/request.ts';
import { type ReferenceTarget, startReference } from '../reference/server.ts';
import { runInProcess } from './support/in-process.ts';
import { targetEnv } from './support/target-env.ts';
import { listening, passOn } from './support/proxy.ts';

/**
 * A gateway on port 0 in front of an API that locks its callers out after `failures` answers of 401: from then on it
 * answers 401 to every request, the right credentials too, as a gateway that locks a key after failed attempts does.
 */
async function startLockingGateway(upstream: string, failures: number): Promise<{ url: string; server: Server }> {
  const target = new URL(upstream);
  let refused = 0;
  const server = createServer((req, res) => {
    if (refused >= failures) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"message":"locked after failed attempts"}');
      req.resume();
      return;
    }
    passOn(target, req, res, {
      answered: (status) => {
        if (status === 401) refused += 1;
      },
    });
  });
  return listening(server);
}

describe("auth.required's wrong secrets in the forms broken checks let through", () => {
  let reference: ReferenceTarget;
  let gateway: { url: string; server: Server };

  beforeAll(async () => {
    reference = await startReference();
    gateway = await startLockingGateway(reference.alertsUrl, 4);
  });

  afterAll(async () => {
    gateway?.server.closeAllConnections();
    await new Promise((resolve) => gateway?.server.close(resolve));
    await reference?.close();
  });

  it('sends each form once to one read per API, and the verdicts name every form as a part judged', async () => {
    const run = await runInProcess(['--rules', 'auth.required', '--runs', '2', '--seed', '3']);
    expect(run.code).toBe(0);
    const message = (operationId: string): string =>
      run.report.results.find((r) => r.rule === 'auth.required' && r.operationId === operationId)?.message ?? '';
    for (const form of Object.values(CREDENTIAL_FORMS)) {
      expect(message('getUsageCost')).toContain(`${form.name} ×1`);
      if (form.schemes.includes('bearer' as never)) expect(message('listAlerts')).toContain(`${form.name} ×1`);
      else expect(message('listAlerts')).not.toContain(form.name);
    }
    expect(message('createKey')).not.toContain(CREDENTIAL_FORMS.empty.name);
  });

  it(
    "says first, as an incident, that the target refused the run's own credentials after a wrong one, and sends no " +
      'more wrong ones',
    async () => {
      const run = await runInProcess(
        ['--rules', 'auth.required', '--runs', '2', '--seed', '3'],
        targetEnv(reference, { alerts: gateway.url }),
      );
      const incidents = run.report.incidents ?? [];
      expect(incidents.some((text) => text.includes("The alerts API refused the run's own credentials (401)"))).toBe(
        true,
      );
      const list = run.report.results.find((r) => r.rule === 'auth.required' && r.operationId === 'listAlerts');
      expect(list?.outcome).not.toBe('passed');
    },
  );
});
