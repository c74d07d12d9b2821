import { API_LIST } from '../apis/index.ts';
import { PROBE_CLASSES, type ProbeClass } from '../core/probe-types.ts';
import type { RunConfig } from '../settings/config.ts';

/** What each probe class does to a target, as the first line names a class it leaves out. */
const CLASS_WORDS: Readonly<Record<ProbeClass, string>> = Object.freeze({
  read: 'reads',
  write: 'creates and changes',
  disruptive: "the service's stop and start",
});

/** The first line a run prints: which target it tests, plainly, what it leaves out, and the probe classes it sends. */
export function targetLine(config: RunConfig): string {
  return `${targetWords(config)}; ${classWords(config)}`;
}

function targetWords(config: RunConfig): string {
  if (config.reference) {
    const { faults, modes } = config.reference;
    const left = Object.entries(config.unconfigured).map(([api, why]) => `${api} API, ${why}`);
    return (
      'Testing the embedded reference target (faults: ' +
      `${faults.length > 0 ? faults.join(', ') : 'none'}${modes.length > 0 ? `; modes: ${modes.join(', ')}` : ''})` +
      `${left.length > 0 ? ` (not under test: ${left.join('; ')})` : ''}`
    );
  }
  const tested = API_LIST.flatMap((api) => {
    const target = config[api.name];
    // The headers a run adds are named, never their values (secrets).
    const headers = Object.keys(config.headers?.[api.name] ?? {});
    const adding = headers.length > 0 ? ` with ${headers.join(', ')} (--header, values not shown)` : '';
    return target ? [`${api.name} API at ${target.baseUrl}${adding}`] : [];
  });
  const left = Object.entries(config.unconfigured).map(([api, why]) => `${api} API, ${why}`);
  return `Testing ${tested.join(', ')}${left.length > 0 ? ` (not under test: ${left.join('; ')})` : ''}`;
}

/** The probe classes a run sends, and those it leaves out with why (the default, or the classes given). */
function classWords(config: RunConfig): string {
  const sent = `probe classes ${config.allow.join(', ')}`;
  const left = PROBE_CLASSES.filter((klass) => !config.allow.includes(klass));
  if (left.length === 0) return `${sent} (every class)`;
  const named = left.map((klass) => `${klass} (${CLASS_WORDS[klass]})`).join(', ');
  const { given, name } = config.allowFrom;
  return given
    ? `${sent}; left out by ${name}: ${named}`
    : `${sent}; left out by default against a configured target: ${named}, run only when ${name} names ` +
        `${left.length === 1 ? 'it' : 'them'}`;
}
