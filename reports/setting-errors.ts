import { API_LIST, APIS } from '../apis/index.ts';
import { credentialVariables, type IdSetting } from '../apis/descriptor.ts';
import { mergeCredentialTallies } from '../evidence/credential-tally.ts';
import type { SuiteReport } from '../run/run-report-types.ts';

/** The variables of the credentials every request of a run to an API carries (its descriptor names them). */
const credentialsOf = (api: string): string =>
  api in APIS ? credentialVariables(APIS[api as keyof typeof APIS]) : 'the credentials';

/**
 * Settings mistakes that only the run could show, as harness errors (the run's outcome is then `error`, exit 2):
 * an API that refused every request sent with the run's credentials, and an id whose operation's valid requests all
 * got 404 (SERVICE_ID's pipe creates), unless its API refused them all.
 */
export function settingErrors(suites: readonly SuiteReport[]): string[] {
  const tally = mergeCredentialTallies(suites.map((s) => s.credentials));
  const errors: string[] = [];
  for (const [api, count] of Object.entries(tally.apis)) {
    if (count.sent === 0 || count.refused < count.sent) continue;
    errors.push(
      `the ${api} API refused all ${count.sent} requests sent with the run's credentials (401/403): a ` +
        `settings mistake, not a contract failure. Check ${credentialsOf(api)}.`,
    );
  }
  for (const api of API_LIST) {
    const own = tally.apis[api.name];
    const refusedAll = own !== undefined && own.refused === own.sent;
    for (const { unknownWhen, variable, flag } of api.settings.ids as readonly IdSetting[]) {
      const count = unknownWhen && tally.operations[unknownWhen.operationId];
      if (count && count.sent > 0 && count.notFound === count.sent && !refusedAll) {
        errors.push(unknownWhen.message(count.sent, flag ? `${variable} (--${flag})` : variable));
      }
    }
  }
  return errors;
}
