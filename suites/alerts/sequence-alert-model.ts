import { sameId } from '../../core/sameness.ts';
import { isSuccess, type Exchange } from '../../transport/exchange.ts';

type Alert = Record<string, unknown>;

/**
 * The model of an alerts sequence: the alert under test as its updates left it, and every other alert as first listed.
 */
export interface AlertModel {
  readonly id: string;
  /** The alert under test as a list must show it: set by the first accepted update of the sequence. */
  expected?: Alert;
  readonly others: readonly Alert[];
  /** Whether the sequence may send this many requests more, `atOnce` of them at once (`SequenceReal.room`). */
  readonly room: (requests: number, atOnce?: number) => boolean;
}

/** The entries of a list answer (`{ data: [...] }`), or none. */
export function listedAlerts(exchange: Exchange): Alert[] {
  const data = (exchange.response?.json as { data?: unknown } | undefined)?.data;
  return isSuccess(exchange) && Array.isArray(data) ? (data as Alert[]) : [];
}

/** The model a sequence starts from: the other alerts as the list before it shows them. */
export function alertModel(id: string, list: Exchange, room: AlertModel['room']): AlertModel {
  const others = listedAlerts(list).filter((alert) => !sameId(alert.id, id));
  return { id, others, room };
}
