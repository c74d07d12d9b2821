// Preloaded (`node --import`) into each process `npm run bench` starts: writes the process's peak resident set
// size, worker threads included, in bytes, to the file named by BENCH_MAX_RSS_FILE when it exits.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_MAX_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
