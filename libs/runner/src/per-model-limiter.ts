/**
 * At most `limit` jobs at once per model; the rest wait in arrival order. One slow model cannot take the
 * slots of another.
 */
export class PerModelLimiter {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly limit: number) {}

  async run<T>(model: string, job: () => Promise<T>): Promise<T> {
    if ((this.running.get(model) ?? 0) >= this.limit) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(model) ?? [];
        queue.push(resolve);
        this.waiting.set(model, queue);
      });
    } else {
      this.running.set(model, (this.running.get(model) ?? 0) + 1);
    }
    try {
      return await job();
    } finally {
      const next = this.waiting.get(model)?.shift();
      // The slot passes straight to the next waiter; otherwise it is freed.
      if (next) next();
      else this.running.set(model, (this.running.get(model) ?? 1) - 1);
    }
  }

  /** Jobs running and waiting for a model. */
  load(model: string): { running: number; waiting: number } {
    return { running: this.running.get(model) ?? 0, waiting: this.waiting.get(model)?.length ?? 0 };
  }
}
