import { API_LIST } from '../apis/index.ts';
import { credentialSettings, otherTenantSettings } from '../apis/descriptor.ts';

/** The subcommands of `conformance`, in the order the help lists them. */
export const COMMANDS = ['run', 'reference', 'rules', 'diff', 'merge', 'bundle', 'verify', 'docs', 'help'] as const;

/** A subcommand's name. */
export type Command = (typeof COMMANDS)[number];

/** The flags each subcommand takes besides `--help` (those of `run` are RUN_FLAGS in settings/config.ts). */
export const COMMAND_FLAGS: Readonly<Record<Exclude<Command, 'run'>, readonly string[]>> = Object.freeze({
  reference: ['fault', 'mode', 'management-port', 'alerts-port', 'host', 'list'],
  rules: ['json'],
  diff: [],
  merge: ['report-dir', 'baseline', 'require-judged'],
  bundle: ['report-dir', 'har'],
  verify: [],
  docs: ['check'],
  help: [],
});

/** One line of the target settings' help: the flag, the variables, what they are, in columns. */
const targetLine = (flag: string, variables: string, about: string): string =>
  `  ${flag.padEnd(23)}${variables.padEnd(20)}  ${about}`;

/** The help's lines for every API's target settings, from its descriptor: base URL, credentials, ids. */
const TARGET_HELP = API_LIST.flatMap((api) => {
  const { baseUrl, credentials, ids } = api.settings;
  const credentialVariables = credentialSettings(api).map((setting) => setting.variable);
  return [
    targetLine(`--${baseUrl.flag} URL`, baseUrl.variable, `base URL of the ${api.name} API`),
    targetLine('', credentialVariables.join(', '), credentials.about),
    ...ids.map((id) => targetLine(id.flag ? `--${id.flag} ID` : '', id.variable, id.about)),
    // Another tenant's variables are too long for the column: what they are goes on the next line.
    ...(api.settings.other
      ? [
          targetLine(
            '',
            otherTenantSettings(api)
              .map((setting) => setting.variable)
              .join(', '),
            '',
          ).trimEnd(),
          targetLine('', '', api.settings.other.about),
        ]
      : []),
  ];
}).join('\n');

const RUN_FLAGS_HELP = `Target (a flag wins over its environment variable; with no API's URL set, the embedded
reference target is started and used):
${TARGET_HELP}

Network (proxies apply to a configured target; the embedded one is reached directly):
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY and their lower-case forms are honoured as curl honours them, and
  ALL_PROXY for a scheme with none; a SOCKS proxy (socks5://...) is not spoken: exit 2, PROXY_UNSUPPORTED
  --ca FILE              certificate authorities (PEM) trusted besides the system's, as NODE_EXTRA_CA_CERTS
  --client-cert FILE     client certificate (PEM) for mutual TLS, with --client-key FILE
  --client-key FILE      its private key (PEM); an encrypted key's passphrase from CLIENT_KEY_PASSPHRASE

Gateway and settings file (docs/config-and-headers.md):
  --header 'Name: value' sent on every request of both APIs (repeatable; CONFORMANCE_HEADERS, one a line);
                         the value is a secret: never printed, redacted in every report
  --management-header 'Name: value', --alerts-header 'Name: value'
                         the same, for one API only (CONFORMANCE_MANAGEMENT_HEADERS, CONFORMANCE_ALERTS_HEADERS)
  --config FILE          settings from a JSON or YAML file (else conformance.config.json, .yaml or .yml in the
                         working folder): the library's keys; flags beat variables beat the file; \${NAME} reads
                         the environment; credentials stay in their variables

Run:
  --api management|alerts  only this API: nothing is sent to the other, even when its settings are set
  --rules ID,...         run only these rules          --skip-rules ID,...  skip these rules
  --allow CLASSES        probe classes allowed: read,write,disruptive (default: read,write against a
                         configured target, every class against the embedded one)
  --runs N               examples per property (default 8)
  --seed N               replay a run exactly (default: random, printed)
  --timeout-ms N         per request (default 10000)   --budget-ms N  whole run (default 600000)
  --max-rps N            requests per second at most (default: no limit)
  --concurrency N        requests in flight at most (default 8)
  --max-requests N       requests in the whole run at most
  --max-response-bytes N response body cap, as sent and once decoded (default 4194304)
  --report-dir DIR       where reports go (default reports/out)
  --har FILE             also write every exchange as HAR 1.2 (redacted), each with the verdicts it gave evidence for
  --bundle DIR           also gather the reports (and the HAR) into a new folder with manifest.json (see bundle)
  --baseline FILE        known failures; the run fails only on new ones
  --update-baseline      write the run's failures to --baseline FILE
  --require-judged       fail (exit 1) when a selected rule could not be judged; skips by choice do not count
  --dry-run              print the plan and send nothing
  --verbose              list every verdict in the terminal summary, not only the causes of failure
  --shard i/n            run the i-th of n parts (join them with \`conformance merge\`)
  --reference-fault NAME embedded target only: switch on a named fault (repeatable)
  --reference-mode NAME  embedded target only: switch on an unusual but correct mode (repeatable)

The terminal summary is in colour on a terminal; NO_COLOR turns colour off, FORCE_COLOR on.

Exit codes: 0 every rule that ran passed; 1 at least one rule failed; 2 the run could not be made.`;

/** The text of `conformance --help`. */
export const HELP = `Usage: conformance [command] [flags]

Commands:
  run (default)          run every suite against the target and write reports
  reference              start the embedded reference target and print its settings
  rules [ID] [--json]    list the rule ids, or explain one rule: its contract, operations and breaking faults
  diff OLD.json NEW.json compare two findings files
  docs [--check]         write docs/rules.md and docs/traceability.{md,json} (--check: exit 1 if out of date)
  merge DIR... [--report-dir OUT] [--baseline FILE] [--require-judged]
                         join the findings of shards into one report
  bundle DIR [--report-dir DIR] [--har FILE]
                         gather a finished run's evidence into a new folder with manifest.json of SHA-256s
  verify DIR             re-check a bundle: exit 0 intact, 1 a file changed (named), 2 not a bundle
  help [command]         this help, or a command's

${RUN_FLAGS_HELP}
`;

/** The text of `conformance COMMAND --help` and `conformance help COMMAND`, per subcommand. */
export const COMMAND_HELP: Readonly<Record<Command, string>> = Object.freeze({
  run: `Usage: conformance [run] [flags]

Runs every suite against the target, prints a summary (the causes of failure first) and writes findings.json,
report.html, summary.md, junit.xml and results.sarif to the report directory.

${RUN_FLAGS_HELP}
`,
  reference: `Usage: conformance reference [--fault NAME]... [--mode NAME]... [--management-port N] [--alerts-port N]
                             [--host HOST] [--list]

Starts the embedded reference target (both APIs, in memory) and prints its URLs, ids and credentials as
\`export\` lines; runs until Ctrl-C.
  --fault NAME           switch on a named fault (repeatable)
  --mode NAME            switch on an unusual but correct behaviour (repeatable)
  --management-port N    port of the management API (default: any free port)
  --alerts-port N        port of the alerts API (default: any free port)
  --host HOST            address to listen on (default 127.0.0.1)
  --list                 list the faults and modes, with the rules each fault breaks
`,
  rules: `Usage: conformance rules [ID] [--json]

Without an id, lists every rule: its id, basis (stated or inferred) and title. With an id, prints the rule's
contract sentence, its basis, how the harness probes it, the statements of the contract documents it enforces,
the operations it concerns and the reference faults that break it (\`conformance --reference-fault NAME\` shows
that failure).
  --json                 the same as JSON
`,
  diff: `Usage: conformance diff OLD.json NEW.json

Compares two findings files rule by rule and operation by operation: new failures, fixed, still failing,
newly skipped. Exits 1 when there are new failures, else 0.
`,
  merge: `Usage: conformance merge DIR... [--report-dir OUT] [--baseline FILE] [--require-judged]

Joins the report directories of the shards of one run (\`--shard i/n\`) into the whole run's reports, and exits
like a run (0, 1 or 2).
  --report-dir OUT       where the merged reports go (default reports/out)
  --baseline FILE        known failures; the merge fails only on new ones
  --require-judged       fail (exit 1) when a selected rule could not be judged in any shard; skips by choice
                         do not count
`,
  bundle: `Usage: conformance bundle DIR [--report-dir DIR] [--har FILE]

Gathers the evidence of a finished run into DIR, a new folder: the reports of its report folder (findings.json,
report.html, summary.md, junit.xml, results.sarif), its HAR as traffic.har, and manifest.json: the tool's version,
the SHA-256 of both specs and of the rule table, the target (no credentials), the settings, the seed, the verdict
counts and the SHA-256 of every file. \`conformance verify DIR\` checks it. Tamper-evident, not signed: whoever
edits a file can also rewrite the manifest; keep the manifest's digest where the recipient can compare it.
  --report-dir DIR       the run's report folder (default reports/out)
  --har FILE             the HAR the run wrote (--har), to include
`,
  verify: `Usage: conformance verify DIR

Re-checks a bundle written by \`conformance bundle\` or \`--bundle\`: the manifest's own digest, the SHA-256 and size
of every file it lists, that no file is missing or added, and findings.json and the HAR against their schemas. Says
when the bundle was made by another version of the tool, or judged by other specs or another rule table.
Exit 0: intact; 1: a file changed, is missing or was added (each named); 2: DIR is not a bundle.
`,
  docs: `Usage: conformance docs [--check]

Writes docs/rules.md from the rule table, the specs' operations and the reference faults, and the traceability
matrix (docs/traceability.md and .json: every statement of the contract documents in ../shared/seeds/ and the rules
that judge it, or why none does).
  --check                write nothing; exit 1 when one of them is out of date
`,
  help: `Usage: conformance help [command]

Prints the help of \`conformance\`, or of one command: ${COMMANDS.join(', ')}.
`,
});
