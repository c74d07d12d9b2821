import { APIS } from '../apis/index.ts';
import { credentialVariables } from '../apis/descriptor.ts';
import { mergeCredentialTallies } from '../core/credential-tally.ts';
import type { SuiteReport } from '../core/run-report.ts';

/** The variables of the credentials every request of a run to an API carries (its descriptor names them). */
const credentialsOf = (api: string): string =>
  api in APIS ? credentialVariables(APIS[api as keyof typeof APIS]) : 'the credentials';

/**
 * Settings mistakes that only the run could show, as harness errors (the run's outcome is then `error`, exit 2):
 * an API that refused every request sent with the run's credentials, and pipe creates of SERVICE_ID that all got 404.
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
  const creates = tally.operations.createPipe;
  if (
    creates &&
    creates.sent > 0 &&
    creates.notFound === creates.sent &&
    !(tally.apis.management && tally.apis.management.refused === tally.apis.management.sent)
  ) {
    errors.push(
      `all ${creates.sent} pipe creates got 404: SERVICE_ID (--service) is not a service of ` +
        'ORGANIZATION_ID that the management API knows. Check SERVICE_ID.',
    );
  }
  return errors;
}
