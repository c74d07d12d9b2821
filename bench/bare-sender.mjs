// The bare process of `npm run bench`: plain JavaScript, so that Node runs it with nothing transformed.
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'undici';

const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/**
 * Sends every request of a JSON file (`[{ url, method, headers, body }]`, body in base64) once, `concurrency` at a
 * time over one keep-alive undici Agent like the harness's, reads each answer whole, and prints how many it sent.
 */
async function sendAll(file, concurrency) {
  const requests = JSON.parse(await readFile(file, 'utf8'));
  const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 4_000 });
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const { url, method, headers, body } = requests[next++];
      const res = await request(url, {
        method,
        headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_HEADERS.has(name))),
        ...(body ? { body: Buffer.from(body, 'base64') } : {}),
        dispatcher,
      });
      await res.body.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await dispatcher.close();
  process.stdout.write(`${requests.length}\n`);
}

await sendAll(process.argv[2], Number(process.argv[3] ?? 8));
