/** Sequential little-endian writes into a preallocated buffer (RIFF headers), chainable. */
export class LeWriter {
  offset = 0;

  constructor(private readonly buffer: Buffer) {}

  fourcc(code: string): this {
    if (code.length !== 4) throw new RangeError(`a fourcc has 4 characters: "${code}"`);
    this.offset += this.buffer.write(code, this.offset, 'latin1');
    return this;
  }

  u32(value: number): this {
    this.offset = this.buffer.writeUInt32LE(value >>> 0, this.offset);
    return this;
  }

  u16(value: number): this {
    this.offset = this.buffer.writeUInt16LE(value, this.offset);
    return this;
  }

  skip(bytes: number): this {
    this.offset += bytes;
    return this;
  }
}
