// The rig's own version, from package.json, for the record in results.json.
import { readFileSync } from 'node:fs';

export const RIG_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
