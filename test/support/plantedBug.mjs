// Preloaded into the CLI (NODE_OPTIONS=--import) by cli.internalError.test.ts: serialising a run's
// results throws, a stand-in for any bug in the rig that surfaces after the run.
const stringify = JSON.stringify;
JSON.stringify = function (value, ...rest) {
  if (value && typeof value === 'object' && value.schema === 'a2a-rig/results@1')
    throw new TypeError('planted bug: cannot serialise the results');
  return stringify.call(this, value, ...rest);
};
