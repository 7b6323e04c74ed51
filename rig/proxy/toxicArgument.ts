// `--toxic <type>=<value>[,attr=value]...`: a toxic for a whole run, from the command line. The value
// after the type is its main attribute (`latency=50` is a 50 ms latency toxic); further attributes,
// and `stream` and `toxicity`, follow comma-separated: `latency=50,jitter=10`,
// `bandwidth=100,stream=upstream`, `reset_peer=500,toxicity=0.1`. Units are Toxiproxy's (ms, KB/s,
// bytes; slicer's delay in µs). Mistakes are user errors naming what to write instead.
import { UserError } from '../protocol/userError.ts';
import type { ToxicKind, ToxicSpec, ToxicStream } from './faultControl.ts';

/** Each type's attributes, the main one first. */
const ATTRIBUTES: Record<ToxicKind, readonly string[]> = {
  latency: ['latency', 'jitter'],
  bandwidth: ['rate'],
  slow_close: ['delay'],
  timeout: ['timeout'],
  reset_peer: ['timeout'],
  slicer: ['average_size', 'size_variation', 'delay'],
  limit_data: ['bytes'],
};

const FORMAT = 'write --toxic TYPE=VALUE[,ATTRIBUTE=VALUE...], e.g. --toxic latency=50,jitter=10';

function isKind(type: string): type is ToxicKind {
  return Object.hasOwn(ATTRIBUTES, type);
}

function pair(item: string, whole: string): [string, string] {
  const at = item.indexOf('=');
  if (at <= 0 || at === item.length - 1)
    throw new UserError(`--toxic "${whole}": "${item}" is not NAME=VALUE; ${FORMAT}`);
  return [item.slice(0, at).trim(), item.slice(at + 1).trim()];
}

function wholeNumber(name: string, value: string, whole: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new UserError(`--toxic "${whole}": ${name} must be a whole number ≥ 0, got "${value}"`);
  return n;
}

export function parseToxicArgument(whole: string): ToxicSpec {
  const [first, ...rest] = whole.split(',');
  const [type, mainValue] = pair(first, whole);
  if (!isKind(type))
    throw new UserError(
      `--toxic "${whole}": unknown toxic type "${type}"; use one of ${Object.keys(ATTRIBUTES).join(', ')}`,
    );
  const names = ATTRIBUTES[type];
  const attributes: Record<string, number> = { [names[0]]: wholeNumber(names[0], mainValue, whole) };
  let stream: ToxicStream | undefined;
  let toxicity: number | undefined;
  for (const item of rest) {
    const [name, value] = pair(item, whole);
    if (name in attributes || (name === 'stream' && stream) || (name === 'toxicity' && toxicity !== undefined)) {
      throw new UserError(`--toxic "${whole}": ${name} is given twice`);
    }
    if (name === 'stream') {
      if (value !== 'upstream' && value !== 'downstream')
        throw new UserError(`--toxic "${whole}": stream must be upstream or downstream, got "${value}"`);
      stream = value;
    } else if (name === 'toxicity') {
      toxicity = Number(value);
      if (value === '' || !(toxicity >= 0 && toxicity <= 1))
        throw new UserError(`--toxic "${whole}": toxicity must be a number from 0 to 1, got "${value}"`);
    } else if (names.includes(name)) {
      attributes[name] = wholeNumber(name, value, whole);
    } else {
      throw new UserError(
        `--toxic "${whole}": ${type} has no attribute "${name}"; it takes ${names.join(', ')}, stream, toxicity`,
      );
    }
  }
  return {
    type,
    attributes,
    ...(stream ? { stream } : {}),
    ...(toxicity !== undefined ? { toxicity } : {}),
  } as ToxicSpec;
}
