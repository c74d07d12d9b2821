import { curlCommand } from '../evidence/curl.ts';
import { replayCommand } from '../evidence/replay.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { Finding } from '../evidence/finding.ts';
import { judge, type Judgement } from '../rule-model/judge.ts';
import { coverFields } from '../evidence/field-coverage.ts';
import {
  cover,
  coverNeighbourhood,
  coverTransition,
  neighbourhoodTally,
  tally,
  type KeptFinding,
  type Ledger,
} from '../evidence/ledger.ts';
import { neighbourhoodOf } from '../evidence/neighbourhood.ts';
import type { Rule, Violation } from '../rule-model/rule.ts';
import { runCredentials, runOtherCredentials } from '../apis/index.ts';
import { valuesUnder } from '../secrets/secret-registry.ts';
import type { Session } from './session.ts';
import { withoutBigInts } from '../core/json-text.ts';

const MAX_EVIDENCE_CHARS = 4_000;

/** What recording an exchange judged of it, and the findings it made that the ledger kept. */
export interface Judged {
  readonly judgements: readonly Judgement[];
  readonly findings: readonly KeptFinding[];
}

/**
 * Judges an exchange with the selected rules and records the outcome in the ledger, redacting all evidence; returns the
 * judgements and references to the findings kept.
 */
export function recordExchange(session: Session, ledger: Ledger, rules: readonly Rule[], exchange: Exchange): Judged {
  const { specs, memories } = session;
  // The run's one registry of secrets learns what the exchange carries before any rule judges it or anything of it is
  // recorded: the redactor and `secrets.absent` read it.
  const generated = session.redactor.secrets.record(exchange, specs);

  for (const rule of rules) rule.memory?.sent?.(memories.get(rule.id), exchange, specs);
  const operation = session.operation(exchange.operationId);
  const context = { operation, specs, validators: session.validators };
  const judgements = judge(exchange, rules, context, memories);
  for (const rule of rules) rule.memory?.answered?.(memories.get(rule.id), exchange);

  cover(ledger, exchange.operation, exchange.response ? String(exchange.response.status) : exchange.failure!.code);
  coverFields(ledger, exchange, operation);
  // A shrink candidate is no evidence, and a step with no answer covered nothing.
  const { transition, shrink } = exchange.probe;
  if (transition && !shrink && exchange.response) coverTransition(ledger, exchange.operation, transition);
  const places = neighbourhoodTally(ledger, exchange.operation);
  places.places ??= neighbourhoodOf(
    operation,
    specs.operations.filter((one) => one.api === operation.api && one.path === operation.path).map((one) => one.method),
  );
  const { neighbourhood } = exchange.probe;
  if (neighbourhood && exchange.response) coverNeighbourhood(ledger, exchange.operation, neighbourhood);
  let redacted: Exchange | undefined;
  let curl: string | undefined;
  session.countViolations(judgements.reduce((n, j) => n + j.violations.length, 0));
  const findings: KeptFinding[] = [];
  for (const { rule, part, violations } of judgements) {
    if (violations.length > 0) {
      redacted ??= session.redactor.exchange(exchange);
      curl ??= reproduction(session, exchange, generated);
    }
    const made = violations.map((v) => finding(session, redacted!, curl!, rule, v));
    findings.push(...tally(ledger, exchange.operation, rule, part, made));
  }
  session.har?.add(redacted ?? session.redactor.exchange(exchange), judgements);
  return { judgements, findings };
}

/**
 * The curl of an unredacted exchange: the run's credentials as variables, the harness's own generated values (the
 * request-only ones it sent: `generated`, or read from its body again) as sent.
 */
export function reproduction(
  session: Pick<Session, 'config' | 'redactor' | 'specs'>,
  exchange: Exchange,
  sent: readonly string[] = valuesUnder(exchange.request.json, session.specs.requestOnlySecretFields),
): string {
  const generated = new Set(sent);
  return curlCommand(exchange.api, exchange.request, {
    credentials: runCredentials(session.config),
    others: runOtherCredentials(session.config),
    redact: (text) => session.redactor.textKeeping(text, generated),
    network: session.config.network,
    compressed: exchange.response?.headers['content-encoding'] !== undefined,
  });
}

function finding(session: Session, exchange: Exchange, curl: string, rule: string, violation: Violation): Finding {
  const seed = session.config.seed;
  const response = exchange.response && { ...exchange.response, text: truncate(exchange.response.text) };
  return {
    rule,
    operation: exchange.operation,
    probe: exchange.probe.label,
    path: violation.path,
    expected: session.redactor.text(violation.expected),
    ...(violation.actual === undefined ? {} : { actual: withoutBigInts(session.redactor.value(violation.actual)) }),
    evidence: {
      request: { ...exchange.request, ...(exchange.request.body ? { body: truncate(exchange.request.body) } : {}) },
      ...(response ? { response } : {}),
      ...(exchange.failure ? { failure: exchange.failure } : {}),
    },
    reproduce: {
      curl,
      seed,
      ...(exchange.probe.example ? { example: exchange.probe.example } : {}),
      command: replayCommand(session.config, rule),
    },
  };
}

function truncate(text: string): string {
  return text.length > MAX_EVIDENCE_CHARS
    ? `${text.slice(0, MAX_EVIDENCE_CHARS)}... [${text.length - MAX_EVIDENCE_CHARS} more characters]`
    : text;
}
