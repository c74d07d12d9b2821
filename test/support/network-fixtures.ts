import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { passOn } from './proxy.ts';

/** The passphrase of the test's encrypted client key: made up for the test, nobody's secret. */
export const TEST_PASSPHRASE = 'test-only-passphrase';

/** Files (PEM) made at test time with openssl: an authority, the certificates it signed, and strays. */
export interface TestCertificates {
  readonly dir: string;
  /** The authority that signed the server's and the client's certificates. */
  readonly caFile: string;
  /** The server's certificate, for `target.test` only, and its key. */
  readonly serverCert: string;
  readonly serverKey: string;
  /** A certificate that signed itself, for `target.test`. */
  readonly selfSignedCert: string;
  readonly selfSignedKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
  /** The client's key, encrypted with TEST_PASSPHRASE. */
  readonly clientKeyEncrypted: string;
  /** A key that belongs to no certificate here. */
  readonly strayKey: string;
  /** A proxy's certificate, for 127.0.0.1, and its key. */
  readonly proxyCert: string;
  readonly proxyKey: string;
  /** Certificates for `target.test` signed by the authority, with the server's key: expired, and not valid yet. */
  readonly expiredCert: string;
  readonly notYetValidCert: string;
}

const OPENSSL = 'openssl';

function openssl(dir: string, args: readonly string[]): void {
  execFileSync(OPENSSL, args, { cwd: dir, stdio: 'pipe' });
}

/** Makes a certificate authority and the certificates of a test in a new temporary folder (about 0.2 s, EC keys). */
export async function makeCertificates(): Promise<TestCertificates> {
  const dir = await mkdtemp(join(tmpdir(), 'network-certs-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'];
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-subj',
    '/CN=Test Authority',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  const signed = async (name: string, subject: string, extensions: string): Promise<void> => {
    await writeFile(join(dir, `${name}.ext`), extensions);
    openssl(dir, ['req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-out',
      `${name}.pem`,
      '-extfile',
      `${name}.ext`,
    ]);
  };
  await signed('server', '/CN=target.test', 'subjectAltName=DNS:target.test\nextendedKeyUsage=serverAuth\n');
  await signed('client', '/CN=test client', 'extendedKeyUsage=clientAuth\n');
  await signed('proxy', '/CN=test proxy', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  // The server's key, certified again for dates other than today's (`openssl ca` takes dates; `x509` does not).
  await writeFile(join(dir, 'index.txt'), '');
  await writeFile(join(dir, 'serial'), '1000\n');
  await writeFile(
    join(dir, 'ca.cnf'),
    '[ca]\ndefault_ca = test\n[test]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\n' +
      'default_md = sha256\npolicy = any\nunique_subject = no\n[any]\ncommonName = supplied\n',
  );
  for (const [name, start, end] of [
    ['expired', '20200101000000Z', '20200102000000Z'],
    ['later', '21000101000000Z', '21000102000000Z'],
  ] as const) {
    openssl(dir, [
      'ca',
      '-batch',
      '-notext',
      '-config',
      'ca.cnf',
      '-cert',
      'ca.pem',
      '-keyfile',
      'ca.key',
      '-in',
      'server.csr',
      '-extfile',
      'server.ext',
      '-startdate',
      start,
      '-enddate',
      end,
      '-out',
      `${name}.pem`,
    ]);
  }
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'self.key',
    '-out',
    'self.pem',
    '-subj',
    '/CN=target.test',
    '-addext',
    'subjectAltName=DNS:target.test',
  ]);
  openssl(dir, [
    'pkey',
    '-in',
    'client.key',
    '-out',
    'client-encrypted.key',
    '-aes256',
    '-passout',
    `pass:${TEST_PASSPHRASE}`,
  ]);
  openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-out', 'stray.key']);
  const at = (file: string): string => join(dir, file);
  return {
    dir,
    caFile: at('ca.pem'),
    serverCert: at('server.pem'),
    serverKey: at('server.key'),
    selfSignedCert: at('self.pem'),
    selfSignedKey: at('self.key'),
    clientCert: at('client.pem'),
    clientKey: at('client.key'),
    clientKeyEncrypted: at('client-encrypted.key'),
    strayKey: at('stray.key'),
    proxyCert: at('proxy.pem'),
    proxyKey: at('proxy.key'),
    expiredCert: at('expired.pem'),
    notYetValidCert: at('later.pem'),
  };
}

/** A server on a loopback port, and how to stop it. */
export interface LoopbackServer {
  readonly port: number;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function closer(server: Server, sockets: Set<Socket>): () => Promise<void> {
  return async () => {
    for (const socket of sockets) socket.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}

/** A TLS front of an HTTP server: its own certificate, and with `clientCa` it requires a client certificate. */
export interface TlsFront extends LoopbackServer {
  /** Requests it passed on. */
  readonly requests: () => number;
}

/**
 * Starts a TLS server on loopback that passes every request on to `upstream` (an http:// origin) as it is. With
 * `clientCa`, a client certificate signed by it is required: in the handshake (TLS 1.3's `certificate_required`
 * alert), with `answers` by answering 400 as nginx's `ssl_verify_client` does, or with `hangsUp` by closing (or
 * resetting) the connection once the handshake is done, without an alert, as nginx and Envoy may.
 */
export async function tlsFront(
  upstream: string,
  tls: {
    readonly cert: string;
    readonly key: string;
    readonly clientCa?: string;
    readonly answers?: boolean;
    readonly hangsUp?: 'close' | 'reset';
  },
): Promise<TlsFront> {
  const target = new URL(upstream);
  let requests = 0;
  const checksLater = tls.answers === true || tls.hangsUp !== undefined;
  const server = createHttpsServer({
    cert: await readFile(tls.cert),
    key: await readFile(tls.key),
    ...(tls.clientCa ? { ca: await readFile(tls.clientCa), requestCert: true, rejectUnauthorized: !checksLater } : {}),
  });
  if (tls.hangsUp)
    server.on('secureConnection', (socket: TLSSocket) => {
      if (socket.authorized) return;
      // A TLS socket cannot reset: its TCP connection, found by the client's port, can.
      const tcp = [...sockets].find((raw) => raw.remotePort === socket.remotePort);
      if (tls.hangsUp === 'reset' && tcp) tcp.resetAndDestroy();
      else socket.destroy();
    });
  server.on('request', (req: IncomingMessage, res) => {
    const socket = req.socket as TLSSocket;
    if (socket.destroyed) return;
    if (tls.clientCa && !socket.authorized) {
      const said = socket.getPeerCertificate().raw
        ? 'The SSL certificate error'
        : 'No required SSL certificate was sent';
      return void res.writeHead(400, { 'content-type': 'text/html' }).end(`<center>${said}</center>\n`);
    }
    requests += 1;
    passOn(target, req, res);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return { port, requests: () => requests, close: closer(server, sockets) };
}

/** A forward proxy's counts: CONNECT tunnels opened, requests forwarded in absolute form, refusals. */
export interface ForwardProxy extends LoopbackServer {
  readonly url: string;
  readonly tunnels: () => number;
  readonly forwarded: () => number;
}

/** A proxy's answer to a CONNECT it refuses, as a real proxy words it. */
function refusal(status: string, headers = ''): string {
  return `HTTP/1.1 ${status}\r\n${headers}Content-Length: 0\r\nConnection: close\r\n\r\n`;
}

/**
 * Starts a forward proxy on loopback (CONNECT, and requests in absolute form) through which alone the names of `hosts`
 * resolve, each to 127.0.0.1; any other name is answered 502. With `credentials` (`user:password`), a request without
 * them is answered 407.
 */
export async function forwardProxy(
  hosts: readonly string[],
  options: { readonly credentials?: string; readonly tls?: { readonly cert: string; readonly key: string } } = {},
): Promise<ForwardProxy> {
  let tunnels = 0;
  let forwarded = 0;
  const allowed = (req: IncomingMessage): boolean =>
    options.credentials === undefined ||
    req.headers['proxy-authorization'] === `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/');
    if (!allowed(req)) return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
    if (!hosts.includes(url.hostname)) return void res.writeHead(502).end();
    forwarded += 1;
    const forward = httpRequest(
      {
        host: '127.0.0.1',
        port: url.port || 80,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  };
  const server = options.tls
    ? createHttpsServer({ cert: await readFile(options.tls.cert), key: await readFile(options.tls.key) }, onRequest)
    : createHttpServer(onRequest);
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [host = '', port = '443'] = (req.url ?? '').split(':');
    if (!allowed(req))
      return void client.end(
        refusal('407 Proxy Authentication Required', 'Proxy-Authenticate: Basic realm="test"\r\n'),
      );
    if (!hosts.includes(host)) return void client.end(refusal('502 Bad Gateway'));
    tunnels += 1;
    const upstream = connect(Number(port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    // A reset passes through the tunnel as a reset.
    upstream.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? client.resetAndDestroy() : client.destroy(),
    );
    client.on('error', () => upstream.destroy());
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return {
    port,
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    tunnels: () => tunnels,
    forwarded: () => forwarded,
    close: closer(server, sockets),
  };
}
