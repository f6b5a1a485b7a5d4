import type { ChatEvent, StreamRunControl, TextTaskIntakePort } from '@gen/contracts';
import { StreamLeases } from './stream-leases';

/** Renewed every 300 ms. */
const LEASE_MS = 900;

/** The tasks domain's lease calls, recorded. */
function intake() {
  const renewed: string[][] = [];
  const port = {
    accept: async () => {
      throw new Error('not here');
    },
    renew: async (_owner: string, taskIds: readonly string[]) => {
      renewed.push([...taskIds]);
      return [...taskIds];
    },
  } as unknown as TextTaskIntakePort;
  return { port, renewed };
}

/**
 * A run as RunChatUseCase makes it: one event, then it waits for `finish` (or its cut), reports (`reported`),
 * and ends; `fail` ends it without a report.
 */
function run() {
  let finish: (how: 'report' | 'fail') => void = () => undefined;
  const ended = new Promise<'report' | 'fail' | 'cut'>((resolve) => (finish = resolve));
  let cut = false;
  const open = (control: StreamRunControl): AsyncIterable<ChatEvent> =>
    (async function* () {
      yield { type: 'text', delta: 'Hi' } as ChatEvent;
      const onCut = (): void => {
        cut = true;
        finish('report');
      };
      if (control.cut.aborted) onCut();
      else control.cut.addEventListener('abort', onCut);
      const how = await ended;
      if (how === 'fail') throw new Error('the report could not be published');
      control.reported?.();
      yield { type: 'finish', reason: cut ? 'length' : 'stop' } as ChatEvent;
    })();
  return { open, finish: (how: 'report' | 'fail') => finish(how), wasCut: () => cut };
}

async function readAll(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const all: ChatEvent[] = [];
  try {
    for await (const event of events) all.push(event);
  } catch {
    // a run that failed to report
  }
  return all;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('StreamLeases: the leases of the answers a process streams', () => {
  it('renews every open answer every third of the lease in one call, each until it reported', async () => {
    const tasks = intake();
    const leases = new StreamLeases(tasks.port, LEASE_MS);
    leases.start();
    try {
      const a = run();
      const b = run();
      const readA = readAll(leases.hold('job_a', a.open));
      const readB = readAll(leases.hold('job_b', b.open));
      await sleep(LEASE_MS * 0.75);
      expect(tasks.renewed.length).toBeGreaterThanOrEqual(2);
      expect(tasks.renewed.at(-1)).toEqual(['job_a', 'job_b']);
      a.finish('report');
      expect((await readA).map((e) => e.type)).toEqual(['text', 'finish']);
      // Reported: its task's end deletes its lease; only the other one is renewed now.
      let before = tasks.renewed.length;
      await sleep(LEASE_MS * 0.4);
      expect(tasks.renewed.length).toBeGreaterThan(before);
      expect(tasks.renewed.slice(before).flat()).toEqual(tasks.renewed.slice(before).map(() => 'job_b'));
      // The one that could not report is not renewed either (it lapses; the tasks service ends the task).
      b.finish('fail');
      await readB;
      before = tasks.renewed.length;
      await sleep(LEASE_MS * 0.8);
      expect(tasks.renewed.slice(before)).toEqual([]);
      expect(leases.held()).toEqual([]);
    } finally {
      leases.stop();
    }
  });

  it('drains: lets answers finish until the cut, cuts the rest, and returns once they reported', async () => {
    const tasks = intake();
    const leases = new StreamLeases(tasks.port, LEASE_MS);
    const quick = run();
    const slow = run();
    const readQuick = readAll(leases.hold('job_quick', quick.open));
    const readSlow = readAll(leases.hold('job_slow', slow.open));
    setTimeout(() => quick.finish('report'), 50);
    const start = Date.now();
    await leases.drain(start + 200, start + 400);
    expect(Date.now() - start).toBeGreaterThanOrEqual(190);
    expect(Date.now() - start).toBeLessThan(390);
    expect(quick.wasCut()).toBe(false);
    expect(slow.wasCut()).toBe(true);
    expect(await readQuick).toEqual([
      { type: 'text', delta: 'Hi' },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(await readSlow).toEqual([
      { type: 'text', delta: 'Hi' },
      { type: 'finish', reason: 'length' },
    ]);
    expect(leases.held()).toEqual([]);
    // An answer opened after the cut is cut at once.
    const late = run();
    const readLate = readAll(leases.hold('job_late', late.open));
    expect((await readLate).at(-1)).toEqual({ type: 'finish', reason: 'length' });
  });

  it('drains at once when nothing is open', async () => {
    const leases = new StreamLeases(intake().port, LEASE_MS);
    const start = Date.now();
    await leases.drain(start + 5000, start + 6000);
    expect(Date.now() - start).toBeLessThan(100);
  });
});
