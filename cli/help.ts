/** The text of `conformance --help`. */
export const HELP = `Usage: conformance [command] [flags]

Commands:
  run (default)          run every suite against the target and write reports
  reference              start the embedded reference target and print its settings
  rules                  list the rule ids
  diff OLD.json NEW.json compare two findings files
  docs [--check]         write docs/rules.md from the rule table (--check: exit 1 if it is out of date)
  merge DIR... [--report-dir OUT] [--baseline FILE]
                         join the findings of shards into one report

Target (a flag wins over its environment variable; with neither URL set, the embedded
reference target is started and used):
  --management-url URL   MANAGEMENT_BASE_URL   base URL of the management API
                         MANAGEMENT_KEY_ID, MANAGEMENT_KEY_SECRET  HTTP Basic credentials
  --organization ID      ORGANIZATION_ID       organization to run against
  --service ID           SERVICE_ID            service that owns the pipes the run creates
  --backup ID            BACKUP_ID             a backup of that service (else the backup operation is skipped)
  --alerts-url URL       ALERTS_BASE_URL       base URL of the alerts API
                         ALERTS_TOKEN          Bearer token of the alerts API
  --alert ID             ALERT_ID              alert the run may update and put back (else picked from the list)

Run:
  --rules ID,...         run only these rules          --skip-rules ID,...  skip these rules
  --allow CLASSES        probe classes allowed: read,write,disruptive (default: all)
  --runs N               examples per property (default 8)
  --seed N               replay a run exactly (default: random, printed)
  --timeout-ms N         per request (default 10000)   --budget-ms N  whole run (default 600000)
  --max-rps N            requests per second at most (default: no limit)
  --concurrency N        requests in flight at most (default 8)
  --max-requests N       requests in the whole run at most
  --max-response-bytes N response body cap (default 4194304)
  --report-dir DIR       where reports go (default reports/out)
  --baseline FILE        known failures; the run fails only on new ones
  --update-baseline      write the run's failures to --baseline FILE
  --dry-run              print the plan and send nothing
  --verbose              list every verdict in the terminal summary, not only the causes of failure
  --shard i/n            run the i-th of n parts (join them with \`conformance merge\`)
  --reference-fault NAME embedded target only: switch on a named fault (repeatable)
  --reference-mode NAME  embedded target only: switch on an unusual but correct mode (repeatable)

Exit codes: 0 every rule that ran passed; 1 at least one rule failed; 2 the run could not be made.
`;
