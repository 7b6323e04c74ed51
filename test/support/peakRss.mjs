// Preloaded into the CLI (NODE_OPTIONS=--import) by tests that bound the rig's memory: as the
// process exits it writes its peak resident set (VmHWM, in kB, from /proc/self/status) to the file
// named by RIG_PEAK_RSS_FILE. VmHWM is the kernel's own high-water mark, so no peak is missed
// between samples.
import { readFileSync, writeFileSync } from 'node:fs';

process.on('exit', () => {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  if (match && process.env.RIG_PEAK_RSS_FILE) writeFileSync(process.env.RIG_PEAK_RSS_FILE, match[1]);
});
