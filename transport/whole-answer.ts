import type { Dispatcher } from 'undici';

/** A target's answer, read whole: its final status, its headers as undici parses them, its body. */
export interface WholeAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

/** How long an answer may take and how large its body may be. */
export interface AnswerLimits {
  /** The whole exchange, from the request's dispatch to the answer's last byte. */
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/**
 * Sends one request through `dispatcher` and reads its answer whole: `too-large` once the body passes
 * `limits.maxBytes` (the request is then aborted); a rejection with a `TimeoutError` once `limits.timeoutMs` has
 * passed (the request is aborted too), or with undici's error. undici's own `request` API wraps every answer in a
 * stream and an async resource, which cost a run about a tenth of its time in its sending thread, for answers
 * that are read whole anyway; this is undici's dispatch API with a handler that keeps the chunks.
 */
export function wholeAnswer(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  limits: AnswerLimits,
): Promise<WholeAnswer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let status = 0;
    let headers: WholeAnswer['headers'] = {};
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    const settle = (done: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done();
    };
    const timer = setTimeout(() => {
      const error = new DOMException(`no complete response within ${limits.timeoutMs} ms`, 'TimeoutError');
      settle(() => reject(error));
      // Settled first: aborting calls onResponseError at once. A request still waiting for a connection is aborted
      // as it starts.
      controller?.abort(error);
    }, limits.timeoutMs);
    dispatcher.dispatch(options, {
      onRequestStart(started) {
        controller = started;
        if (settled) started.abort(new DOMException('the answer was no longer awaited', 'AbortError'));
      },
      onResponseStart(_, statusCode, answered) {
        // Called again for the final answer after an informational (1xx) one, which it so replaces.
        status = statusCode;
        headers = answered;
      },
      onResponseData(started, chunk) {
        size += chunk.length;
        if (size > limits.maxBytes) {
          settle(() => resolve('too-large'));
          started.abort(new RangeError(`the body passed ${limits.maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      },
      onResponseEnd() {
        settle(() => resolve({ status, headers, body: Buffer.concat(chunks, size) }));
      },
      onResponseError(_, error) {
        settle(() => reject(error));
      },
    });
  });
}
