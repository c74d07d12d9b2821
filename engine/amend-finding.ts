import type { Exchange } from '../core/exchange.ts';
import type { Finding } from '../core/finding.ts';
import type { Ledger } from '../core/ledger.ts';

/**
 * Changes the kept finding of `rule` that `exchange` gave: the first whose example and probe are the exchange's, else
 * the first of the operation's findings of that rule without a sequence; false when the ledger kept none.
 */
export function amendFinding(
  ledger: Ledger,
  exchange: Exchange,
  rule: string,
  amend: (finding: Finding) => Finding,
): boolean {
  const findings = ledger.tallies[exchange.operation]?.[rule]?.findings;
  if (!findings) return false;
  const example = exchange.probe.example;
  const own = (f: Finding): boolean =>
    f.probe === exchange.probe.label &&
    f.reproduce.example?.property === example?.property &&
    f.reproduce.example?.index === example?.index &&
    f.sequence === undefined;
  let at = findings.findIndex(own);
  if (at < 0) at = findings.findIndex((f) => f.sequence === undefined);
  const finding = findings[at];
  if (!finding) return false;
  findings[at] = amend(finding);
  return true;
}
