import { runSecrets } from '../apis/index.ts';
import type { TargetsOf } from '../apis/descriptor.ts';
import { type NetworkSettings, networkSecrets } from './network-settings.ts';

/**
 * Every secret value of a run's settings, for its redactors: the APIs' credentials, the client key's passphrase and the
 * proxies' passwords.
 */
export function configSecrets(config: TargetsOf & { readonly network?: NetworkSettings }): string[] {
  return [...runSecrets(config), ...networkSecrets(config.network)];
}
