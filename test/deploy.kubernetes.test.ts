// deploy/kubernetes/ checked offline (no cluster runs here) against the Kubernetes API schema, with
// PyPI's kubernetes-validate, which ships the schemas (.ci/run installs a pinned version into
// .tools/py/kubernetes-validate), in strict mode: an unknown field fails, not only a wrong type. Two
// schema versions: the oldest Kubernetes the manifests claim and the newest the package knows.
//
// The schema knows field names and types but not every allowed value (`completionMode: Indexd`
// passes it), nor how the files fit together. So the invariants the rig relies on are asserted here
// from the parsed manifests (the venv's PyYAML turns them into JSON): an Indexed Job whose N is the
// one --shard says and whose pods all run at once, never retried; one ReadWriteMany volume mounted
// by both Jobs at the same path; the merge reading the directory the workers write.
//
// Without the venv this skips with one line, except under CI, where it fails (as the Python peers).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = new URL('../', import.meta.url).pathname;
const manifestDir = join(repoRoot, 'deploy/kubernetes');
/** The oldest Kubernetes the manifests claim (rig-workers-job.yaml's usage) and the newest schema shipped. */
const KUBERNETES_VERSIONS = ['1.30', '1.37'];
/** Where the venvs live: A2A_RIG_PY_VENVS (a directory holding kubernetes-validate/), else <repo>/.tools/py. */
const venv = join(process.env.A2A_RIG_PY_VENVS ?? join(repoRoot, '.tools/py'), 'kubernetes-validate');
const validator = join(venv, 'bin', 'kubernetes-validate');

/** Why the check cannot run here, or undefined; under CI a missing venv is an error, not a skip. */
function validatorMissing(): string | undefined {
  if (existsSync(validator)) return undefined;
  const reason = `no kubernetes-validate venv at ${venv} (.ci/run prepares it; or set A2A_RIG_PY_VENVS)`;
  const ci = process.env.CI;
  if (ci !== undefined && !['', 'false', '0'].includes(ci.toLowerCase())) throw new Error(`CI is set and ${reason}`);
  console.warn(`deploy.kubernetes.test: skipped — ${reason}`);
  return reason;
}

const missing = validatorMissing();
const manifestFiles = readdirSync(manifestDir)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => join(manifestDir, f));

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`.trim() };
}

function kubernetesValidate(version: string, files: string[]) {
  return run(validator, ['--strict', '--kubernetes-version', version, ...files]);
}

/** Every document of every manifest file, parsed (once) by the venv's PyYAML. */
let parsed: any[] | undefined;
function loadManifests(): any[] {
  if (parsed) return parsed;
  const script =
    'import json,sys,yaml; print(json.dumps([d for f in sys.argv[1:] for d in yaml.safe_load_all(open(f))]))';
  const r = run(join(venv, 'bin', 'python'), ['-c', script, ...manifestFiles]);
  if (r.status !== 0) throw new Error(`PyYAML could not read the manifests: ${r.output}`);
  parsed = (JSON.parse(r.output) as any[]).filter((d) => d !== null);
  return parsed;
}

function only(docs: any[], kind: string, name: string): any {
  const found = docs.filter((d) => d.kind === kind && d.metadata?.name === name);
  expect(found, `exactly one ${kind} ${name}`).toHaveLength(1);
  return found[0];
}

/** The value after `flag` in a container's args. */
function argAfter(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

/** Where a pod template mounts the PersistentVolumeClaim `claim`. */
function claimMountPath(podSpec: any, claim: string): string | undefined {
  const volume = podSpec.volumes?.find((v: any) => v.persistentVolumeClaim?.claimName === claim);
  return podSpec.containers[0].volumeMounts?.find((m: any) => m.name === volume?.name)?.mountPath;
}

describe.skipIf(missing !== undefined)('deploy/kubernetes against the Kubernetes API schema', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'a2a-rig-k8s-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it.each(KUBERNETES_VERSIONS)('every manifest passes the strict schema of Kubernetes %s', (version) => {
    const r = kubernetesValidate(version, manifestFiles);
    console.log(r.output);
    expect(r.status, r.output).toBe(0);
    const resources = loadManifests().length;
    expect(resources).toBeGreaterThanOrEqual(5); // the PVC, both Jobs, the agent's Deployment and Service
    expect(r.output.match(new RegExp(`passed for resource .* against version ${version}`, 'g'))).toHaveLength(
      resources,
    );
  });

  it('rejects a broken copy, naming the misspelled field (strict: an unknown field is an error)', () => {
    const original = readFileSync(join(manifestDir, 'rig-workers-job.yaml'), 'utf8');
    // A misspelled parallelism would leave it at 1: the other workers never start, the barrier hangs.
    const broken = original.replace(/^ {2}parallelism: /m, '  parallelizm: ');
    expect(broken).not.toBe(original);
    const file = join(scratch, 'rig-workers-job.yaml');
    writeFileSync(file, broken);
    const r = kubernetesValidate(KUBERNETES_VERSIONS[0], [file]);
    console.log(r.output);
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/did not validate for resource job\/a2a-rig-workers/);
    expect(r.output).toContain("'parallelizm' was unexpected");
  });

  it('the workers are an Indexed Job of N pods that all run at once, never retried, each told --shard N', () => {
    const workers = only(loadManifests(), 'Job', 'a2a-rig-workers');
    const { spec } = workers;
    expect(spec.completionMode).toBe('Indexed');
    expect(spec.completions).toBeGreaterThan(1);
    expect(spec.parallelism, 'parallelism = completions, or the barrier never completes').toBe(spec.completions);
    expect(spec.backoffLimit, 'a retried worker would arrive after the barrier').toBe(0);
    expect(spec.activeDeadlineSeconds).toBeGreaterThan(0);
    expect(spec.template.spec.restartPolicy).toBe('Never');
    const container = spec.template.spec.containers[0];
    expect(container.args[0]).toBe('run');
    expect(argAfter(container.args, '--shard')).toBe(String(spec.completions));
    expect(argAfter(container.args, '--run-id')).toBe('$(A2A_RIG_RUN_ID)');
    const runId = container.env.find((e: any) => e.name === 'A2A_RIG_RUN_ID');
    expect(runId?.valueFrom?.fieldRef?.fieldPath).toBe("metadata.labels['batch.kubernetes.io/controller-uid']");
  });

  it('one ReadWriteMany volume, mounted by both Jobs at one path; the merge reads what the workers write', () => {
    const docs = loadManifests();
    const pvc = only(docs, 'PersistentVolumeClaim', 'a2a-rig-results');
    expect(pvc.spec.accessModes).toContain('ReadWriteMany');
    const workers = only(docs, 'Job', 'a2a-rig-workers').spec.template.spec;
    const merge = only(docs, 'Job', 'a2a-rig-merge').spec.template.spec;
    const mountPath = claimMountPath(workers, pvc.metadata.name);
    expect(mountPath).toBeDefined();
    expect(claimMountPath(merge, pvc.metadata.name)).toBe(mountPath);

    const out = argAfter(workers.containers[0].args, '--out');
    expect(out?.startsWith(`${mountPath}/`), `--out ${out} is on the volume`).toBe(true);
    const mergeArgs: string[] = merge.containers[0].args;
    expect(mergeArgs[0]).toBe('merge');
    expect(mergeArgs[1]).toBe(out);
    expect(argAfter(mergeArgs, '--out')).toBe(`${out}/merged`);
    expect(mergeArgs).not.toContain('--partial');
    expect(merge.restartPolicy).toBe('Never');
    expect(merge.containers[0].env.map((e: any) => e.name)).toContain('A2A_RIG_RUN_ID');
  });

  it("the workers' --target is the example agent's Service, and every pod runs the one image", () => {
    const docs = loadManifests();
    const service = only(docs, 'Service', 'a2a-agent');
    const workers = only(docs, 'Job', 'a2a-rig-workers').spec.template.spec;
    const target = new URL(argAfter(workers.containers[0].args, '--target') ?? '');
    expect(target.hostname).toBe(service.metadata.name);
    expect(service.spec.ports.map((p: any) => String(p.port))).toContain(target.port);
    const images = new Set(
      docs.filter((d) => d.spec?.template).flatMap((d) => d.spec.template.spec.containers.map((c: any) => c.image)),
    );
    expect([...images]).toEqual(['registry.example.com/a2a-rig:0.1.0']);
  });
});
