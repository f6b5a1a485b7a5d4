export class UsageError extends Error {}

export interface ParsedArgs {
  readonly words: string[];
  readonly flags: Record<string, string>;
}

/** `--name value` and `--name=value`; every flag takes a value; words are the rest, in order. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const words: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (!name || value === undefined) throw new UsageError(`flag --${name} needs a value`);
    if (flags[name] !== undefined) throw new UsageError(`flag --${name} is given twice`);
    flags[name] = value;
  }
  return { words, flags };
}
