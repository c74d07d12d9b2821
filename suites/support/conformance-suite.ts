import fc from 'fast-check';
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import type { RunConfig } from '../../core/config.ts';
import type { Specs } from '../../core/spec.ts';
import { createLedger, type Ledger } from '../../core/ledger.ts';
import { countCredentialUse, createCredentialTally } from '../../core/credential-tally.ts';
import { RULES } from '../../rules/index.ts';
import type { CreatedResource, SuiteReport } from '../../core/run-report.ts';
import { groupSkip, selectedGroups, type GroupSkip } from './plan.ts';
import { writeRecord } from './write-record.ts';
import type { ProbeGroup, SuiteContext, SuiteDefinition } from './suite-types.ts';
import { recordExchange } from './record.ts';
import { createShrinker } from './shrink.ts';
import { propertySeed } from './seeds.ts';
import { createSession, type Session } from './session.ts';
import { verdict } from './verdict.ts';
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
  const { config, specs, knownFailures, plannedRequests } = inject('conformance');
  const ledger: Ledger = createLedger();
  const credentials = createCredentialTally();
  const skips: GroupSkip[] = [];
  const created: CreatedResource[] = [];
  const incidents: string[] = [];
  let rateLimited = 0;
  let requests = 0;
  const operationKeys = new Map<string, string>();

  describe(name, () => {
    beforeAll(async () => {
      const s = await session(config, specs);
      for (const id of definition.operations) operationKeys.set(id, s.operation(id).key);
      const rules = RULES.filter((rule) => config.rules.includes(rule.id));
      const clients = s.clients(
        (exchange) => {
          if (exchange.failure?.code !== 'budget' && exchange.failure?.code !== 'interrupted') requests += 1;
          recordExchange(s, ledger, rules, exchange);
          countCredentialUse(credentials, exchange);
          const write = writeRecord(exchange);
          if (write) {
            created.push(write);
            s.announceCreated(name, write);
          }
        },
        () => {
          rateLimited += 1;
          requests += 1;
        },
      );
      const shrink = createShrinker({ session: s, ledger, rules, ...(plannedRequests === undefined ? {} : { planned: plannedRequests }) });
      const contextOf = (group: ProbeGroup): SuiteContext => ({
        config,
        send(operationId, request) {
          const operation = s.operation(operationId);
          const client = clients[operation.api];
          if (!client) throw new Error(`${operation.api} API is not configured; the group should have been skipped`);
          if (!config.allow.includes(operation.klass))
            throw new Error(`${group.name} sent to ${operationId} (class ${operation.klass}), which --allow does not allow; the group should have been skipped`);
          return client.send({ ...request, operation, params: { ...defaultParams(config), ...request.params } });
        },
        examples(property, arbitrary, cap = Infinity) {
          const seed = propertySeed(config.seed, `${name}/${property}`);
          return fc.sample(arbitrary, { seed, numRuns: Math.min(cap, config.runs) }).map((value, index) => ({ value, example: { property: `${name}/${property}`, seed, index } }));
        },
        unable(reason, which = {}) {
          // When a group it runs after was left out by the user's choice, that choice is why.
          const cause = skips.find((skip) => skip.byChoice && group.after?.includes(skip.group));
          const why = cause ? `${reason}, because ${cause.group} did not run: ${cause.reason}` : reason;
          skips.push({
            group: group.name,
            operations: which.operations ?? group.operations,
            ...((which.feeds ?? group.feeds) ? { feeds: which.feeds ?? group.feeds } : {}),
            reason: why,
            byChoice: cause !== undefined,
          });
        },
        incident: (message) => incidents.push(message),
        shrink,
      });
      const selected = selectedGroups(config, definition);
      const runnable = definition.groups.filter((group) => {
        const skip = groupSkip(config, group, (id) => s.operation(id), selected);
        if (skip) skips.push(skip);
        return !skip;
      });
      if (definition.sequential) for (const group of runnable) await group.run(contextOf(group));
      else await Promise.all(runnable.map((group) => group.run(contextOf(group))));
      if (s.gate.interrupted.aborted) skips.push({ group: 'every group', operations: definition.operations, feeds: RULES.map((rule) => rule.id), reason: 'the run was interrupted', byChoice: false });
    }, config.budgetMs + 60_000);

    afterAll(({}, suite) => {
      const report: SuiteReport = {
        suite: name,
        coverage: ledger.coverage,
        created,
        incidents,
        requests,
        rateLimited,
        skippedGroups: skips.map(({ group, reason }) => ({ group, reason })),
        credentials,
      };
      suite.meta.conformanceSuite = report;
    });

    for (const operationId of definition.operations) {
      const rules = RULES.filter((rule) => rule.operations.includes(operationId));
      describe(operationId, () => {
        for (const rule of rules) {
          test(rule.id, async ({ task, skip, annotate }) => {
            const key = operationKeys.get(operationId) ?? operationId;
            const result = verdict(config, ledger, skips, rule, operationId, key);
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
