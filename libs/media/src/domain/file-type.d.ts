// file-type ships its types under package.json `exports`, which this workspace's module resolution (node10)
// does not read; this declares the one function the media lib calls.
declare module 'file-type' {
  export function fileTypeFromBuffer(
    buffer: Uint8Array | ArrayBuffer,
  ): Promise<{ readonly ext: string; readonly mime: string } | undefined>;
}
