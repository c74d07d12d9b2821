import { describe, expect, it } from 'vitest';
import { API_LIST } from '../apis/index.ts';
import { settingsOf } from '../apis/descriptor.ts';
import { COMMAND_HELP, HELP } from '../cli/help.ts';

const TARGET = `Target (a flag wins over its environment variable; with no API's URL set, the embedded
reference target is started and used):
  --management-url URL   MANAGEMENT_BASE_URL   base URL of the management API
                         MANAGEMENT_KEY_ID, MANAGEMENT_KEY_SECRET  HTTP Basic credentials
  --organization ID      ORGANIZATION_ID       organization to run against
  --service ID           SERVICE_ID            service that owns the pipes the run creates
  --backup ID            BACKUP_ID             a backup of that service (else the backup operation is skipped)
                         OTHER_MANAGEMENT_KEY_ID, OTHER_MANAGEMENT_KEY_SECRET, OTHER_ORGANIZATION_ID
                                               another organization's key and id (access.other-tenant; all or none)
  --alerts-url URL       ALERTS_BASE_URL       base URL of the alerts API
                         ALERTS_TOKEN          Bearer token of the alerts API
  --alert ID             ALERT_ID              alert the run may update and put back (else picked from the list)
                         OTHER_ALERTS_TOKEN
                                               another team's token (access.other-tenant)

Network (`;

const NETWORK = `Network (proxies apply to a configured target; the embedded one is reached directly):
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY and their lower-case forms are honoured as curl honours them, and
  ALL_PROXY for a scheme with none; a SOCKS proxy (socks5://...) is not spoken: exit 2, PROXY_UNSUPPORTED
  --ca FILE              certificate authorities (PEM) trusted besides the system's, as NODE_EXTRA_CA_CERTS
  --client-cert FILE     client certificate (PEM) for mutual TLS, with --client-key FILE
  --client-key FILE      its private key (PEM); an encrypted key's passphrase from CLIENT_KEY_PASSPHRASE

Gateway and settings file (docs/config-and-headers.md):`;

describe('help', () => {
  it('lists the target settings of every API, from its descriptor, in columns', () => {
    expect(HELP).toContain(TARGET);
    expect(COMMAND_HELP.run).toContain(TARGET);
  });

  it('says how to pass a proxy, certificate authorities and a client certificate', () => {
    expect(HELP).toContain(NETWORK);
    expect(COMMAND_HELP.run).toContain(NETWORK);
  });

  it('names every variable and flag of every descriptor once', () => {
    for (const api of API_LIST) {
      for (const { variable, flag } of settingsOf(api)) {
        // Whole names only: OTHER_MANAGEMENT_KEY_ID holds MANAGEMENT_KEY_ID.
        expect(HELP.split(new RegExp(`(?<![A-Z_])${variable}(?![A-Z_])`)).length - 1, variable).toBe(1);
        if (flag) expect(HELP).toMatch(new RegExp(`^ {2}--${flag} (URL|ID) +${variable} `, 'm'));
      }
    }
  });
});
