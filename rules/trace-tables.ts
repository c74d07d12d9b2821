import type { TraceTable } from '../spec/traceability.ts';
import { ALERTS_TRACE } from './traceability-alerts.ts';
import { MANAGEMENT_TRACE } from './traceability-management.ts';

/** The traceability table of each contract document, by the document's name (the first word of its title). */
export const TRACE_TABLES: Readonly<Record<string, TraceTable>> = Object.freeze({
  management: MANAGEMENT_TRACE,
  alerts: ALERTS_TRACE,
});
