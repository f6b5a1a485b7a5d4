import type { Client } from 'pg';

/** How the runner's queue ran some tasks: what a kill test asserts after the killed runner's tasks were taken over. */
export interface RunnerJobs {
  /** Tasks whose queue row is not finished. */
  readonly unfinished: string[];
  /** Tasks claimed more than once (a second runner took them after the first one's lease lapsed), sorted. */
  readonly claimedAgain: string[];
  /** The most times any one of them was claimed. */
  readonly mostRuns: number;
}

/** Reads `runner.jobs` for `ids` (any database client on the fleet's database). */
export async function runnerJobs(db: Client, ids: readonly string[]): Promise<RunnerJobs> {
  const rows = (
    await db.query<{ task_id: string; runs: number; finished: boolean }>(
      `SELECT "task_id", "runs", "finished_at" IS NOT NULL AS "finished" FROM "runner"."jobs" WHERE "task_id" = ANY($1)`,
      [ids],
    )
  ).rows;
  return {
    unfinished: rows.filter((j) => !j.finished).map((j) => j.task_id),
    claimedAgain: rows
      .filter((j) => j.runs > 1)
      .map((j) => j.task_id)
      .sort(),
    mostRuns: Math.max(0, ...rows.map((j) => j.runs)),
  };
}

/**
 * What every runner kill test asserts once the tasks have ended: each ran to its end (its queue row finished),
 * only the dead runner's tasks (`orphans`) were claimed a second time, and none more than twice.
 */
export async function expectTakenOverOnce(db: Client, ids: readonly string[], orphans: readonly string[]) {
  const jobs = await runnerJobs(db, ids);
  expect({ unfinished: jobs.unfinished, claimedAgain: jobs.claimedAgain }).toEqual({
    unfinished: [],
    claimedAgain: [...orphans].sort(),
  });
  expect(jobs.mostRuns).toBeLessThanOrEqual(2);
}
