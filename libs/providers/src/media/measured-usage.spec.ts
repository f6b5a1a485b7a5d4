import { measuredUsage } from './measured-usage';

describe('measuredUsage', () => {
  it('counts images and their pixels, and the milliseconds of files with a duration', () => {
    expect(
      measuredUsage([
        { width: 768, height: 512 },
        { width: 10, height: 10 },
        { durationSeconds: 2.0004 },
        { width: 1280, height: 720, durationSeconds: 1.5 },
      ]),
    ).toEqual({ images: 2, pixels: 768 * 512 + 100, milliseconds: 3500 });
  });

  it('names only what was measured: nothing for files without dimensions or duration', () => {
    expect(measuredUsage([{ durationSeconds: 0.25 }])).toEqual({ milliseconds: 250 });
    expect(measuredUsage([{ width: 2, height: 3 }])).toEqual({ images: 1, pixels: 6 });
    expect(measuredUsage([{}])).toEqual({});
  });
});
