/** Why a request is refused, as a stable code that faults and modes can select on. */
export type ProblemCode =
  | 'required'
  | 'type'
  | 'enum'
  | 'pattern'
  | 'format'
  | 'min-items'
  | 'unknown-field'
  | 'too-large'
  | 'malformed-json'
  | 'content-type'
  | 'not-found'
  | 'source-kind'
  | 'unmapped-column'
  | 'period-order'
  | 'period-too-long'
  | 'repeated'
  | 'duplicate'
  | 'invalid';

/** One reason a request is refused: where in the request, why, and the HTTP status it calls for. */
export interface Problem {
  readonly path: string;
  readonly code: ProblemCode;
  readonly message: string;
  readonly status: 400 | 404 | 409 | 413 | 415;
}

/** Builds a problem; the status defaults to 400. */
export function problem(path: string, code: ProblemCode, message: string, status: Problem['status'] = 400): Problem {
  return { path, code, message, status };
}

/** The HTTP status a list of problems calls for: a missing resource wins over a bad body. */
export function statusOf(problems: readonly Problem[]): number {
  if (problems.some((p) => p.status === 404)) return 404;
  if (problems.some((p) => p.status === 415)) return 415;
  if (problems.some((p) => p.status === 409)) return 409;
  return 400;
}
