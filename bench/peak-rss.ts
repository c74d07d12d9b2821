import { readFile } from 'node:fs/promises';

/** Samples the process's resident set size (worker threads included: they share the process) until stopped. */
export interface RssSampler {
  /** Stops sampling; returns the highest sample, in bytes. */
  stop(): number;
}

/** Starts sampling `process.memoryUsage.rss()` every `intervalMs`. */
export function sampleRss(intervalMs = 50): RssSampler {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

/**
 * The process's peak resident set size since it started (VmHWM of /proc/self/status), in bytes; undefined off Linux.
 */
export async function highWaterMark(): Promise<number | undefined> {
  const status = await readFile('/proc/self/status', 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}
