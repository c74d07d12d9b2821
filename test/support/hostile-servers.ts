import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';

/** A misbehaving target on a loopback port, answering (badly) for both APIs on any path. */
export interface HostileServer {
  readonly url: string;
  /** Requests it has seen (for the raw-socket kinds, connections that sent one: each carries one request). */
  readonly requests: () => number;
  /** Bytes of body it has written, for the servers that write one. */
  readonly bytesWritten: () => number;
  readonly close: () => Promise<void>;
}

/** The kinds of misbehaviour, each a whole target. */
export type HostileKind = 'hang' | 'garbage' | 'reset' | 'endless';

/** Starts a hostile target of the given kind on 127.0.0.1, port 0. */
export function startHostile(kind: HostileKind): Promise<HostileServer> {
  switch (kind) {
    case 'hang':
      return rawServer((socket, counters) => {
        socket.once('data', () => {
          counters.requests += 1;
        });
      });
    case 'reset':
      return rawServer((socket, counters) => {
        socket.once('data', () => {
          counters.requests += 1;
          socket.resetAndDestroy();
        });
      });
    case 'garbage':
      return httpServer((res, counters) => {
        const body = '}{not json';
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        counters.bytes += body.length;
      });
    case 'endless':
      return httpServer((res, counters, req) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        // A HEAD answer has no body: Node ignores every write to it (each a true), so the writer would never stop.
        if (req.method === 'HEAD') res.end();
        else writeForever(res, counters);
      });
  }
}

interface Counters {
  requests: number;
  bytes: number;
}

const ENDLESS_START = Buffer.from(
  '{"status":200,"requestId":"00000000-0000-4000-8000-000000000000","result":{"padding":"',
);
const ENDLESS_CHUNK = Buffer.from('x'.repeat(16 * 1024));

/** Writes a JSON string that never ends, as fast as the client reads it, and stops when the connection goes away. */
function writeForever(res: ServerResponse, counters: Counters): void {
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  res.write(ENDLESS_START);
  counters.bytes += ENDLESS_START.length;
  const pump = (): void => {
    while (!closed) {
      counters.bytes += ENDLESS_CHUNK.length;
      if (!res.write(ENDLESS_CHUNK)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

function rawServer(onSocket: (socket: Socket, counters: Counters) => void): Promise<HostileServer> {
  const counters: Counters = { requests: 0, bytes: 0 };
  const server = createNetServer((socket) => {
    socket.on('error', () => {
      /* the client went away; nothing to answer */
    });
    onSocket(socket, counters);
  });
  return listen(server, counters);
}

function httpServer(
  onRequest: (res: ServerResponse, counters: Counters, req: IncomingMessage) => void,
): Promise<HostileServer> {
  const counters: Counters = { requests: 0, bytes: 0 };
  const server = createHttpServer((req, res) => {
    counters.requests += 1;
    req.resume();
    res.on('error', () => {
      /* the client went away mid-body */
    });
    onRequest(res, counters, req);
  });
  return listen(server, counters);
}

/** Listens on a loopback port; closing destroys every open connection, so that a hanging client cannot keep it open. */
function listen(server: Server, counters: Counters): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        reject(new Error('the hostile server has no TCP address'));
        return;
      }
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        requests: () => counters.requests,
        bytesWritten: () => counters.bytes,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
