export { mapVideoRequest, writeVideo, type MappedVideoRequest } from './videos';
