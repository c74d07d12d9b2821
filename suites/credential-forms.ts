import { setTimeout as sleep } from 'node:timers/promises';
import { APIS } from '../apis/index.ts';
import { type Credentials, authorizationHeader } from '../apis/descriptor.ts';
import { CREDENTIAL_FORM_READS, CREDENTIAL_FORMS } from '../rules/request.ts';
import { accept, reject } from '../engine/probe.ts';
import type { ProbeGroup, SuiteContext } from '../engine/suite-types.ts';
import type { AuthTarget } from './auth-group.ts';

/**
 * The pause before each wrong credential: with the read of the run's own credentials after each, the wrong ones are
 * spread out, never a burst that a gateway counting failures would lock the run's key for.
 */
const WRONG_CREDENTIAL_SPACING_MS = 100;

/** Statuses that say the target no longer takes the run's own credentials. */
const REFUSED_CREDENTIALS = Object.freeze([401, 403]);

type Form = (typeof CREDENTIAL_FORMS)[keyof typeof CREDENTIAL_FORMS];

/** A form's `Authorization` header, or why it cannot be written with these credentials. */
type FormHeader = { readonly authorization: string } | { readonly unable: string };

/** A text with the case of each letter turned, or undefined when it has no letter. */
function otherCase(text: string): string | undefined {
  const turned = [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  return turned === text ? undefined : turned;
}

/** `Basic` with the base64 of a raw value (which may lack the colon). */
const basicRaw = (value: string): string => `Basic ${Buffer.from(value, 'utf8').toString('base64')}`;

/** Each form of a wrong secret or token, written from the run's own credentials. */
function formHeaders(credentials: Credentials, otherKeyId: string | undefined): Map<Form, FormHeader> {
  const forms = new Map<Form, FormHeader>();
  const secret = 'token' in credentials ? credentials.token : credentials.password;
  const write = (wrong: string): string =>
    'token' in credentials
      ? authorizationHeader('bearer', { token: wrong })
      : authorizationHeader('basic', { user: credentials.user, password: wrong });
  const turned = otherCase(secret);
  forms.set(CREDENTIAL_FORMS.empty, { authorization: write('') });
  forms.set(
    CREDENTIAL_FORMS.otherCase,
    turned === undefined
      ? { unable: 'the secret has no letter to write in another case' }
      : { authorization: write(turned) },
  );
  forms.set(CREDENTIAL_FORMS.prefix, { authorization: write(secret.slice(0, -1)) });
  forms.set(CREDENTIAL_FORMS.longer, { authorization: write(`${secret}A`) });
  if ('user' in credentials) {
    forms.set(CREDENTIAL_FORMS.spaceBefore, { authorization: write(` ${secret}`) });
    forms.set(CREDENTIAL_FORMS.spaceAfter, { authorization: write(`${secret} `) });
    forms.set(CREDENTIAL_FORMS.noColon, { authorization: basicRaw(credentials.user) });
    forms.set(
      CREDENTIAL_FORMS.otherKeyId,
      otherKeyId === undefined
        ? { unable: 'the run created no other key whose id to send' }
        : { authorization: authorizationHeader('basic', { user: otherKeyId, password: secret }) },
    );
  }
  return forms;
}

/**
 * The group that sends an API's read with its run's secret or token in each form broken checks let through
 * (`CREDENTIAL_FORMS`), one at a time, each followed by the read with the run's own credentials: when those are
 * refused after a wrong one, the target may lock keys after failures, so the run says so first (an incident) and sends
 * no more wrong ones. `otherKeyId` gives the id of another key (one the run created), for the form that needs one.
 */
export function credentialFormsGroup(
  target: AuthTarget & {
    readonly otherKeyId?: (context: SuiteContext) => Promise<string | { readonly choice: string | undefined }>;
  },
): ProbeGroup {
  const scheme = APIS[target.api].auth.scheme;
  const forms = Object.values(CREDENTIAL_FORMS).filter((form) => (form.schemes as readonly string[]).includes(scheme));
  const feeds = forms.map((form) => `auth.required#${form.name}`);
  if (CREDENTIAL_FORM_READS[scheme] !== target.operationId)
    throw new Error(`the forms of a wrong ${scheme} secret go to ${CREDENTIAL_FORM_READS[scheme]}`);
  return {
    name: `credential forms: ${target.operationId}`,
    operations: [target.operationId],
    feeds,
    ...(target.after ? { after: target.after } : {}),
    estimate: () => 2 * forms.length,
    async run(context) {
      const request = target.request(context);
      const credentials = APIS[target.api].credentialsOf(context.config);
      if ('unable' in request || credentials === undefined) {
        context.unable('unable' in request ? request.unable : `no ${target.api} credentials`, { feeds });
        return;
      }
      let headers = formHeaders(credentials, undefined);
      for (const [index, form] of forms.entries()) {
        // Another key's id is known once the suite that creates keys is through: that form goes last.
        const other = form === CREDENTIAL_FORMS.otherKeyId ? await target.otherKeyId?.(context) : undefined;
        if (typeof other === 'string') headers = formHeaders(credentials, other);
        const header = headers.get(form)!;
        if ('unable' in header) {
          const choice = typeof other === 'object' ? other.choice : undefined;
          context.unable(choice ? `${header.unable}, because ${choice}` : header.unable, {
            feeds: [`auth.required#${form.name}`],
            byChoice: choice !== undefined,
          });
          continue;
        }
        if (index > 0) await sleep(WRONG_CREDENTIAL_SPACING_MS);
        await context.send(target.operationId, {
          ...request,
          authorization: header.authorization,
          probe: reject(form.name, 'auth.required', { part: form.name }),
        });
        const own = await context.send(target.operationId, {
          ...request,
          probe: accept(`the run's own credentials, after ${form.name}`),
        });
        const status = own.response?.status;
        if (status !== undefined && REFUSED_CREDENTIALS.includes(status)) {
          const left = forms.slice(index + 1);
          context.incident(
            `The ${target.api} API refused the run's own credentials (${status}) right after a wrong one ` +
              `(${form.name}; wrong form ${index + 1} of ${forms.length}): it may lock a key after failed ` +
              'attempts. No more wrong credentials were sent in these forms; check that the key still works.',
          );
          if (left.length > 0)
            context.unable("the target refused the run's own credentials after a wrong one: no more were sent", {
              feeds: left.map((rest) => `auth.required#${rest.name}`),
            });
          return;
        }
      }
    },
  };
}
