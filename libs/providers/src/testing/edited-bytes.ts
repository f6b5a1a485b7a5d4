import fc from 'fast-check';

/**
 * One of `samples` with one to four edits applied in turn, each overwriting, inserting or cutting one to eight
 * bytes at any offset: the hostile input media walkers must survive without throwing.
 */
export function editedSample(samples: readonly Buffer[]): fc.Arbitrary<Buffer> {
  const edit = fc.record({
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
    mode: fc.constantFrom('overwrite', 'insert', 'cut'),
  });
  return fc
    .tuple(fc.constantFrom(...samples), fc.array(edit, { minLength: 1, maxLength: 4 }))
    .map(([sample, edits]) => {
      let bytes = Buffer.from(sample);
      for (const { at, bytes: patch, mode } of edits) {
        const o = at % (bytes.length + 1);
        if (mode === 'overwrite') bytes.set(patch.subarray(0, bytes.length - o), o);
        else if (mode === 'insert') bytes = Buffer.concat([bytes.subarray(0, o), patch, bytes.subarray(o)]);
        else bytes = Buffer.concat([bytes.subarray(0, o), bytes.subarray(o + patch.length)]);
      }
      return bytes;
    });
}
