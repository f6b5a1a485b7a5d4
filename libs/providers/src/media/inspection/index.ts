// The structural walk of media containers, shared by the inspection of uploads (@gen/media) and of upstream
// outputs (probeMedia): the checks no library makes (where a container ends, cut parts, header consistency).
export * from './container-walk';
export * from './walk-container';
