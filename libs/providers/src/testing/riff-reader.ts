/**
 * An independent RIFF reader for the specs (WAV and AVI): walks chunks by their declared sizes, so a wrong
 * size anywhere shows up as a wrong tree or a read past the end.
 */
export interface RiffChunk {
  readonly id: string;
  /** Offset of the chunk's id in the file. */
  readonly offset: number;
  readonly size: number;
  readonly data: Buffer;
  /** For RIFF and LIST chunks: the form type and the chunks inside. */
  readonly listType?: string;
  readonly children?: readonly RiffChunk[];
}

export function readRiff(file: Buffer): RiffChunk {
  const [root, end] = readChunk(file, 0);
  if (root.id !== 'RIFF') throw new Error(`not RIFF: ${root.id}`);
  if (end !== file.length) throw new Error(`RIFF size covers ${end} of ${file.length} bytes`);
  return root;
}

function readChunk(file: Buffer, offset: number): [RiffChunk, number] {
  const id = file.toString('latin1', offset, offset + 4);
  const size = file.readUInt32LE(offset + 4);
  const start = offset + 8;
  if (start + size > file.length) throw new Error(`chunk ${id} at ${offset} runs past the end`);
  const data = file.subarray(start, start + size);
  const next = start + size + (size % 2);
  if (id !== 'RIFF' && id !== 'LIST') return [{ id, offset, size, data }, next];
  const children: RiffChunk[] = [];
  for (let o = start + 4; o < start + size;) {
    const [child, after] = readChunk(file, o);
    children.push(child);
    o = after;
  }
  return [{ id, offset, size, data, listType: data.toString('latin1', 0, 4), children }, next];
}

/** The first chunk with this id (or LIST of this type) anywhere below `chunk`, depth first. */
export function findChunk(chunk: RiffChunk, id: string): RiffChunk | undefined {
  for (const child of chunk.children ?? []) {
    if (child.id === id || child.listType === id) return child;
    const inner = findChunk(child, id);
    if (inner) return inner;
  }
  return undefined;
}
