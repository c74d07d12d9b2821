import type { Finding } from '../evidence/finding.ts';
import { firstKept, type Ledger } from '../evidence/ledger.ts';
import type { JudgedExchange } from './suite-types.ts';

/**
 * Changes the finding of `rule` that `exchange` made, by the reference recording returned (the first without a
 * sequence); when the ledger did not keep it, the first of the operation's findings of that rule without a sequence.
 * False when the ledger kept none.
 */
export function amendFinding(
  ledger: Ledger,
  exchange: JudgedExchange,
  rule: string,
  amend: (finding: Finding) => Finding,
): boolean {
  const withoutSequence = (finding: Finding): boolean => finding.sequence === undefined;
  const kept =
    exchange.findings.find((own) => own.rule === rule && withoutSequence(own.current())) ??
    firstKept(ledger, exchange.operation, rule, withoutSequence);
  kept?.amend(amend);
  return kept !== undefined;
}
