import {
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request as httpRequest,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server a test started on port 0 of the loopback, and its URL. */
export interface Listening {
  readonly url: string;
  readonly server: Server;
}

/** Starts `server` on port 0 of the loopback, and gives its URL. */
export async function listening(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** How a request is passed on: other headers, a body already read, a look at the status before it is passed back. */
export interface PassOnOptions {
  readonly headers?: OutgoingHttpHeaders;
  readonly body?: Buffer | string;
  readonly answered?: (status: number) => void;
}

/** Passes a request on to `upstream` as it came (or its body as read), and its answer back as it comes. */
export function passOn(upstream: URL, req: IncomingMessage, res: ServerResponse, options: PassOnOptions = {}): void {
  const forward = httpRequest(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: options.headers ?? req.headers,
    },
    (up) => {
      options.answered?.(up.statusCode ?? 0);
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  forward.on('error', () => res.destroy());
  if (options.body === undefined) req.pipe(forward);
  else forward.end(options.body);
}
