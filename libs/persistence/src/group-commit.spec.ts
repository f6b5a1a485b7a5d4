import { GroupCommit } from './group-commit';

/** A writer that records the groups it was given; `failOn` inputs make a group (and themselves) fail. */
function writer(failOn: readonly number[] = []) {
  const groups: number[][] = [];
  const check = (n: number) => {
    if (failOn.includes(n)) throw new Error(`cannot write ${n}`);
  };
  const commit = new GroupCommit<number, string>({
    many: async (inputs) => {
      groups.push([...inputs]);
      await new Promise((r) => setTimeout(r, 5));
      inputs.forEach(check);
      return inputs.map((n) => `w${n}`);
    },
    one: async (n) => {
      groups.push([n]);
      await new Promise((r) => setTimeout(r, 5));
      check(n);
      return `w${n}`;
    },
    keyOf: (n) => String(n % 100),
    limit: 3,
  });
  return { commit, groups };
}

describe('GroupCommit', () => {
  it('writes the first call at once and the calls that arrive meanwhile together', async () => {
    const { commit, groups } = writer();
    const outputs = await Promise.all([1, 2, 3, 4].map((n) => commit.run(n)));
    expect(outputs).toEqual(['w1', 'w2', 'w3', 'w4']);
    expect(groups).toEqual([[1], [2, 3, 4]]);
  });

  it('puts at most `limit` calls in a group, in arrival order', async () => {
    const { commit, groups } = writer();
    await Promise.all([1, 2, 3, 4, 5, 6].map((n) => commit.run(n)));
    expect(groups).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('never puts two calls of one key in a group: the later waits for the next', async () => {
    const { commit, groups } = writer();
    await Promise.all([1, 2, 102, 3].map((n) => commit.run(n)));
    expect(groups).toEqual([[1], [2, 3], [102]]);
  });

  it('fails only the caller whose input cannot be written; the rest of its group is written alone', async () => {
    const { commit, groups } = writer([3]);
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => commit.run(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(groups).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('is idle again after a group: the next call goes at once', async () => {
    const { commit, groups } = writer();
    await commit.run(1);
    await commit.run(2);
    expect(groups).toEqual([[1], [2]]);
  });

  it('writes a lone input, and each input of a failed group, through `many` when there is no `one`', async () => {
    const groups: number[][] = [];
    const commit = new GroupCommit<number, string>({
      many: async (inputs) => {
        groups.push([...inputs]);
        await new Promise((r) => setTimeout(r, 5));
        if (inputs.includes(3)) throw new Error('cannot write 3');
        return inputs.map((n) => `w${n}`);
      },
    });
    const results = await Promise.allSettled([1, 2, 3].map((n) => commit.run(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(results[1]).toEqual({ status: 'fulfilled', value: 'w2' });
    expect(groups).toEqual([[1], [2, 3], [2], [3]]);
  });
});
