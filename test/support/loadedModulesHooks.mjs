// The module hooks of loadedModules.mjs: each resolved URL appended to the file it was given.
import { appendFileSync } from 'node:fs';

/** @type {string} */
let file = '';

/** @param {string} data */
export function initialize(data) {
  file = data;
}

/** @param {string} specifier @param {object} context @param {Function} nextResolve */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
