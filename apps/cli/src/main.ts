import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from './commands';
import { parseArgs, UsageError } from './parse-args';

/** `npm run cli -- [--url URL] [--admin-token T] <command>`: one JSON object on stdout, or a JSON error on stderr. */
async function main(argv: readonly string[]): Promise<number> {
  const { words, flags } = parseArgs(argv);
  const command = COMMANDS.find(
    (c) => c.words.length === words.length && c.words.every((word, i) => word === words[i]),
  );
  if (!command) {
    throw new UsageError(
      `unknown command "${words.join(' ')}"; commands: ${COMMANDS.map((c) => c.words.join(' ')).join(', ')}`,
    );
  }
  const { url: urlFlag, 'admin-token': tokenFlag, ...rest } = flags;
  for (const name of command.required)
    if (rest[name] === undefined) throw new UsageError(`${words.join(' ')} needs --${name}`);
  for (const name of Object.keys(rest)) {
    if (!command.required.includes(name) && !command.optional.includes(name))
      throw new UsageError(`${words.join(' ')} does not take --${name}`);
  }
  const bootstrapPath = join(process.env['DATA_DIR'] ?? './data', 'bootstrap.json');
  const bootstrap = existsSync(bootstrapPath)
    ? (JSON.parse(readFileSync(bootstrapPath, 'utf8')) as { baseUrl?: string; adminToken?: string })
    : {};
  const baseUrl = urlFlag ?? bootstrap.baseUrl;
  const token = tokenFlag ?? process.env['ADMIN_TOKEN'] ?? bootstrap.adminToken;
  if (!baseUrl || !token)
    throw new UsageError(`no --url/--admin-token given and ${bootstrapPath} does not provide them`);

  const { method, path, body } = command.request(rest);
  const response = await fetch(`${baseUrl.replace(/\/$/, '')}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = (await response.json().catch(() => ({}))) as {
    code?: number;
    msg?: string;
    data?: unknown;
    request_id?: string;
  };
  if (response.status !== 200 || envelope.code !== 200) {
    process.stderr.write(
      `${JSON.stringify({ error: { status: response.status, code: envelope.code ?? response.status, message: envelope.msg ?? response.statusText, request_id: envelope.request_id } })}\n`,
    );
    return 1;
  }
  process.stdout.write(`${JSON.stringify(envelope.data)}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage = error instanceof UsageError;
    process.stderr.write(
      `${JSON.stringify({ error: { code: usage ? 'usage' : 'failed', message: error instanceof Error ? error.message : String(error) } })}\n`,
    );
    process.exit(usage ? 2 : 1);
  },
);
