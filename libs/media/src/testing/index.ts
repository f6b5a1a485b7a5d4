// Real media files made in code, for the specs and benches of other projects (bench/media).
export * from './media-samples';
