import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { TaskRow } from '../persistence/task-row';

/** How many accepted streams are remembered (the least recently accepted leaving first: read again). */
const STREAMS_KEPT = 10_000;

/**
 * The text tasks this process accepted for a stream (with their stream lease), as their rows were written, until
 * the final report of each takes it (ApplyExecutionUseCase). That report then needs no read of the task to
 * know what it charges and whether anything listens: those fields never change after acceptance, and the
 * transition that ends the task checks its state in the same statement. One read statement fewer per answer.
 * A task another process accepted, or one forgotten here, is read as before.
 */
@Injectable()
export class StreamsAcceptedHere {
  private readonly accepted = new LRUCache<string, TaskRow>({ max: STREAMS_KEPT });

  remember(task: TaskRow): void {
    this.accepted.set(task.id, task);
  }

  /** The task as accepted here, once (the report that takes it ends it); undefined when not known here. */
  take(taskId: string): TaskRow | undefined {
    const task = this.accepted.get(taskId);
    if (task) this.accepted.delete(taskId);
    return task;
  }
}
