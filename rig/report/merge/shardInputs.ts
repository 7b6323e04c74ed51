// What `merge` was given, read: results directories and results.json files as always, and a shard
// set's directory (the `--out` of `run --shard i/N` workers: `shard-<i>` subdirectories, no
// results.json of its own) expanded to its workers. A worker directory without results.json is
// kept as absent, so the set check can name the worker that did not finish instead of failing to
// read it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { AbsentShard, ShardInput } from '../../results/shardSet.ts';
import { readRunResult, resultsPath } from '../readRunResult.ts';

const SHARD_DIR = /^shard-(\d+)$/;

const isDir = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The `shard-<i>` subdirectories of `dir`, by index; empty when it is not a set directory. */
function shardDirs(dir: string): { index: number; path: string }[] {
  if (!isDir(dir) || existsSync(join(dir, 'results.json'))) return [];
  return readdirSync(dir)
    .flatMap((name) => {
      const m = SHARD_DIR.exec(name);
      return m && isDir(join(dir, name)) ? [{ index: Number(m[1]), path: join(dir, name) }] : [];
    })
    .sort((a, b) => a.index - b.index);
}

/** A worker directory (`shard-<i>`) that holds no results, or undefined. */
function absentShard(path: string): AbsentShard | undefined {
  const m = SHARD_DIR.exec(basename(resolve(path)));
  return m && isDir(path) && !existsSync(join(path, 'results.json'))
    ? { index: Number(m[1]), path: resolve(path) }
    : undefined;
}

export function readMergeInputs(args: string[]): { inputs: ShardInput[]; absent: AbsentShard[] } {
  const inputs: ShardInput[] = [];
  const absent: AbsentShard[] = [];
  const take = (path: string) => {
    const missing = absentShard(path);
    if (missing) absent.push(missing);
    else inputs.push({ run: readRunResult(path), path: resolve(resultsPath(path)) });
  };
  for (const arg of args) {
    const workers = shardDirs(arg);
    if (workers.length === 0) take(arg);
    else for (const w of workers) take(w.path);
  }
  return { inputs, absent };
}
