import { jsonText } from '../core/json-text.ts';

/**
 * One step of a sequence as the report shows it: what it did, the request, a curl that sends it, and what came back.
 */
export interface SequenceStep {
  /** What the step did, in words: `update pipe #1 (broker): name, settings`. */
  readonly command: string;
  /** `METHOD url` of the request. */
  readonly request: string;
  readonly curl: string;
  /** The HTTP status, or the transport failure's code. */
  readonly status: number | string;
  /**
   * For writes sent at once (the step is then the one answered last): every one of them, each with its interval, ms
   * from when the first was sent.
   */
  readonly atOnce?: readonly (Omit<SequenceStep, 'command' | 'atOnce'> & {
    readonly sent: number;
    readonly answered: number;
  })[];
}

/**
 * The shortest sequence of requests found that still shows a failure of a rule judged against the model of what the
 * run wrote: fast-check shrinks the failing sequence (fewer steps first, then each step's values), each candidate sent
 * to the target; the step whose answer disagreed, and what the model expected against what came back.
 */
export interface SequenceExample {
  /**
   * `shrunk` when the failing sequence failed again as fast-check replayed it (then shorter ones were tried);
   * `skipped` when it was not replayed to its end or did not fail again, with the reason.
   */
  readonly outcome: 'shrunk' | 'skipped';
  /** Why shrinking did not run, or why it stopped before fast-check had tried every shorter candidate. */
  readonly reason?: string;
  /** Requests the shrinking sent (each went through the run's request gate). */
  readonly requests: number;
  /** True when fast-check tried every candidate smaller than the sequence shown. */
  readonly complete: boolean;
  readonly steps: readonly SequenceStep[];
  /** The 1-based number of the step whose answer disagreed with the model. */
  readonly failingStep: number;
  /** Where in that answer, what the model expected, and what came back. */
  readonly path: string;
  readonly expected: string;
  readonly actual?: unknown;
  /** Why no order of writes sent at once explains what came back: the orders tried, each with its disagreement. */
  readonly explanation?: readonly string[];
  /**
   * Replays the sequence: `fc.check` of the property with `seed` and `path`, and `fc.commands(..., { replayPath })`.
   */
  readonly replay: {
    readonly property: string;
    readonly seed: number;
    readonly path: string;
    readonly replayPath?: string;
  };
}

/**
 * A sequence as short lines of prose: numbered steps, each with its curl unless `curls` is false (a terminal shows the
 * steps, the report files their curls too), the disagreeing step, expected against actual; the one place it is worded.
 */
export function renderSequenceExample(sequence: SequenceExample, curls = true): string[] {
  const cost = `${sequence.requests} shrink request${sequence.requests === 1 ? '' : 's'}`;
  const how =
    sequence.outcome === 'skipped'
      ? `not shrunk${sequence.requests > 0 ? ` (${cost})` : ''}: ${sequence.reason ?? 'no reason given'}`
      : `shortest failing sequence found, ${sequence.steps.length} ` +
        `step${sequence.steps.length === 1 ? '' : 's'} ` +
        `(${cost}${sequence.complete ? '' : `; stopped early: ${sequence.reason ?? 'the shrink budget was spent'}`})`;
  const steps = sequence.steps.flatMap((step, index) => {
    const disagrees = index + 1 === sequence.failingStep ? '  <- disagrees with the model' : '';
    if (!step.atOnce)
      return [
        `${index + 1}. ${step.command}: ${step.request} -> ${step.status}${disagrees}`,
        ...(curls ? [`   ${step.curl}`] : []),
      ];
    return [
      `${index + 1}. ${step.command}, ${step.atOnce.length} requests sent at once${disagrees}:`,
      ...step.atOnce.flatMap((one, at) => [
        `   ${index + 1}${atOnceLetter(at)}. ${one.request} -> ${one.status}, ` +
          `sent at ${one.sent} ms, answered at ${one.answered} ms`,
        ...(curls ? [`      ${one.curl}`] : []),
      ]),
    ];
  });
  return [how, ...steps, ...sequenceOutcome(sequence)];
}

/**
 * What a sequence's failing step showed, in lines: expected against actual, why no order of writes sent at once
 * explains it (when the step sent them), and the replay line.
 */
export function sequenceOutcome(sequence: SequenceExample): string[] {
  const actual = sequence.actual === undefined ? 'it is absent' : `got ${preview(sequence.actual)}`;
  const { property, seed, path, replayPath } = sequence.replay;
  return [
    `step ${sequence.failingStep}, ${sequence.path || 'the response'}: expected ${sequence.expected}, ${actual}`,
    ...(sequence.explanation ?? []),
    `replay: ${property}, seed ${seed}, path "${path}"${replayPath ? `, replayPath "${replayPath}"` : ''}`,
  ];
}

/** The letter of a request sent at once within its step: `a`, `b`, ... */
export function atOnceLetter(index: number): string {
  return String.fromCharCode(97 + index);
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (jsonText(value) ?? String(value));
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}
