export * from './offline/media-output';
export * from './offline/offline-inputs';
export * from './offline/offline-outcome';
export * from './offline/render-sketch';
export * from './offline/render-tone';
export * from './offline/render-reel';
export * from './offline/offline-media-provider';
export * from './offline/offline-usage';
