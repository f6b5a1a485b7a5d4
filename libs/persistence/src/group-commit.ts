interface Waiting<In, Out> {
  readonly input: In;
  readonly resolve: (output: Out) => void;
  readonly reject: (error: unknown) => void;
}

export interface GroupCommitOptions<In, Out> {
  /** Writes several inputs in one statement; returns one output per input, in their order. */
  readonly many: (inputs: readonly In[]) => Promise<Out[]>;
  /**
   * Writes one input alone: the first call of an idle group, and each input of a group whose statement failed.
   * By default `many` with that input only.
   */
  readonly one?: (input: In) => Promise<Out>;
  /** Inputs of one key never share a group (e.g. two attempts of one delivery); the later one waits. */
  readonly keyOf?: (input: In) => string;
  /** Inputs in one group at most; default 500. */
  readonly limit?: number;
}

/**
 * Group commit for a hot statement: the first call is written at once, and the calls that arrive while a
 * write is under way are written together by the next one, in one statement. A busy process then spends a
 * statement (and a commit) per group instead of one per call, and an idle one waits for nothing. When a group's
 * statement fails, each of its inputs is written alone, so that one bad input fails only its own caller.
 */
export class GroupCommit<In, Out> {
  private waiting: Waiting<In, Out>[] = [];
  private writing = false;

  private readonly one: (input: In) => Promise<Out>;

  constructor(private readonly options: GroupCommitOptions<In, Out>) {
    this.one = options.one ?? (async (input) => (await options.many([input]))[0] as Out);
  }

  run(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) await this.write(this.nextGroup());
    } finally {
      this.writing = false;
    }
  }

  private nextGroup(): Waiting<In, Out>[] {
    const { keyOf, limit = 500 } = this.options;
    const group: Waiting<In, Out>[] = [];
    const rest: Waiting<In, Out>[] = [];
    const keys = new Set<string>();
    for (const w of this.waiting) {
      const key = keyOf?.(w.input);
      if (group.length < limit && (key === undefined || !keys.has(key))) {
        if (key !== undefined) keys.add(key);
        group.push(w);
      } else rest.push(w);
    }
    this.waiting = rest;
    return group;
  }

  private async write(group: readonly Waiting<In, Out>[]): Promise<void> {
    if (group.length > 1) {
      try {
        const outputs = await this.options.many(group.map((w) => w.input));
        group.forEach((w, i) => w.resolve(outputs[i] as Out));
        return;
      } catch {
        // Fall through: one by one.
      }
    }
    await Promise.all(
      group.map((w) =>
        this.one(w.input).then(
          (output) => w.resolve(output),
          (error: unknown) => w.reject(error),
        ),
      ),
    );
  }
}
