// Preloaded (`node --import`) into each process `npm run bench` starts: writes the process's peak resident set
// size, worker threads included, in bytes, and the CPU time it used (user and system, microseconds), to the file
// named by BENCH_MAX_RSS_FILE when it exits.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_MAX_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, `${usage.maxRSS * 1024} ${usage.userCPUTime + usage.systemCPUTime}`);
  });
}
