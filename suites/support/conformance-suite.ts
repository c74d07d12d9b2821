import fc from 'fast-check';
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import type { RunConfig } from '../../core/config.ts';
import type { Specs } from '../../core/spec.ts';
import { createLedger, type Ledger } from '../../core/ledger.ts';
import { RULES } from '../../rules/index.ts';
import type { CreatedResource, SuiteReport } from '../../core/run-report.ts';
import { groupSkipReason } from './plan.ts';
import type { SuiteContext, SuiteDefinition } from './suite-types.ts';
import { recordExchange } from './record.ts';
import { propertySeed } from './seeds.ts';
import { createSession, type Session } from './session.ts';
import { verdict, type GroupSkip } from './verdict.ts';
import { knownFailureReason } from '../../core/known-failures.ts';
import './provided.ts';

const sessions = new Map<string, Promise<Session>>();

/** The worker's session for this run: one per worker, so that limits and the requestId ledger span every suite. */
function session(config: RunConfig, specs: Specs): Promise<Session> {
  const key = `${config.seed}:${config.management?.baseUrl}:${config.alerts?.baseUrl}`;
  if (!sessions.has(key)) sessions.set(key, createSession(config, specs));
  return sessions.get(key)!;
}

/** Declares a vitest suite that runs its probe groups once, then one test per operation and rule. */
export function conformanceSuite(createDefinition: () => SuiteDefinition): void {
  const definition = createDefinition();
  const { name } = definition;
  const { config, specs, knownFailures } = inject('conformance');
  const ledger: Ledger = createLedger();
  const skips: GroupSkip[] = [];
  const created: CreatedResource[] = [];
  let rateLimited = 0;
  let requests = 0;
  const operationKeys = new Map<string, string>();

  describe(name, () => {
    beforeAll(async () => {
      const s = await session(config, specs);
      for (const id of definition.operations) operationKeys.set(id, s.operation(id).key);
      const rules = RULES.filter((rule) => config.rules.includes(rule.id));
      const clients = s.clients((exchange) => {
        if (exchange.failure?.code !== 'budget') requests += 1;
        recordExchange(s, ledger, rules, exchange);
      }, () => { rateLimited += 1; requests += 1; });
      const context: SuiteContext = {
        config,
        send(operationId, request) {
          const operation = s.operation(operationId);
          const client = clients[operation.api];
          if (!client) throw new Error(`${operation.api} API is not configured; the group should have been skipped`);
          return client.send({ ...request, operation, params: { ...defaultParams(config), ...request.params } });
        },
        examples(property, arbitrary, cap = Infinity) {
          const seed = propertySeed(config.seed, `${name}/${property}`);
          return fc.sample(arbitrary, { seed, numRuns: Math.min(cap, config.runs) }).map((value, index) => ({ value, example: { property: `${name}/${property}`, seed, index } }));
        },
        created: (resource) => {
          created.push(resource);
          s.announceCreated(name, resource);
        },
      };
      const runnable = definition.groups.filter((group) => {
        const skip = groupSkipReason(config, group, (id) => s.operation(id).api);
        if (skip) skips.push({ group: group.name, operations: group.operations, reason: skip });
        return !skip;
      });
      if (definition.sequential) for (const group of runnable) await group.run(context);
      else await Promise.all(runnable.map((group) => group.run(context)));
      if (s.gate.interrupted.aborted) skips.push({ group: 'every group', operations: definition.operations, reason: 'the run was interrupted' });
    }, config.budgetMs + 60_000);

    afterAll(({}, suite) => {
      const report: SuiteReport = { suite: name, coverage: ledger.coverage, created, requests, rateLimited, skippedGroups: skips.map(({ group, reason }) => ({ group, reason })) };
      suite.meta.conformanceSuite = report;
    });

    for (const operationId of definition.operations) {
      const rules = RULES.filter((rule) => rule.operations.includes(operationId));
      describe(operationId, () => {
        for (const rule of rules) {
          test(rule.id, async ({ task, skip, annotate }) => {
            const key = operationKeys.get(operationId) ?? operationId;
            const result = verdict(config, ledger, skips, rule.id, operationId, key);
            task.meta.conformanceResult = result;
            if (result.outcome === 'skipped') {
              await annotate(result.message, 'skip-reason');
              skip(result.message);
            }
            const reproduce = result.findings[0]?.reproduce;
            if (reproduce) await annotate(`${reproduce.curl}\n${reproduce.command}`, 'reproduce');
            if (result.outcome !== 'failed') return;
            const known = knownFailureReason(knownFailures, rule.id, key);
            if (known === undefined) throw new ContractViolation(`${rule.id} on ${key}: ${result.message}`);
            const message = `known failure, accepted by the baseline: ${known}. ${result.message}`;
            await annotate(message, 'skip-reason');
            skip(message);
          });
        }
      });
    }
  });
}

/** A rule failed on an operation: the test error that vitest's reporters show. */
class ContractViolation extends Error {
  override name = 'ContractViolation';
}

function defaultParams(config: RunConfig): Record<string, string> {
  return {
    ...(config.management ? { organizationId: config.management.organizationId, serviceId: config.management.serviceId } : {}),
    ...(config.management?.backupId ? { backupId: config.management.backupId } : {}),
  };
}
