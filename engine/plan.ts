import type { RunConfig } from '../core/config.ts';
import { operationById, type Specs } from '../core/spec.ts';
import { SUITES } from '../suites/index.ts';
import { planRun, type Plan } from '../suites/support/plan.ts';
import { preflightRequestCount } from './preflight-plan.ts';

/** The run's plan: every suite's groups under the settings, the preflight's GETs reserved within `--max-requests`. */
export function runPlan(config: RunConfig, specs: Specs): Plan {
  return planRun(
    config,
    SUITES.map((suite) => suite()),
    (operationId) => operationById(specs, operationId),
    preflightRequestCount(config),
  );
}
