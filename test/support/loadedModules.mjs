// Preloaded into the CLI (NODE_OPTIONS=--import) by tests that check what a command loads: every
// module URL the process resolves through the ES module loader (its own files, the packages it
// imports, tsx if anything registers it) is appended, one a line, to the file named by
// RIG_LOADED_MODULES_FILE. A dependency's own require() calls inside CommonJS are not seen.
import { register } from 'node:module';

if (process.env.RIG_LOADED_MODULES_FILE)
  register('./loadedModulesHooks.mjs', import.meta.url, { data: process.env.RIG_LOADED_MODULES_FILE });
