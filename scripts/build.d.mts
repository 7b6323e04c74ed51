// The types of build.mjs, for the TypeScript that calls it (the tests' global setup).
export interface BuildResult {
  compiled: number;
  copied: number;
  removed: number;
  total: number;
  ms: number;
}
export const REPO_ROOT: string;
export function rewriteSpecifiers(code: string): string;
export function buildDist(root?: string): Promise<BuildResult>;
/** Emits dist/'s .d.ts files; returns how many. */
export function buildTypes(root?: string): number;
export function buildLine(result: BuildResult): string | undefined;
