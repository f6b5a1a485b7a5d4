// Fake upstreams as real HTTP servers, and sample media files, for the specs of the apps that call models.
export { FakeUpstream, drain, sseFrame, upstreamFailure, type FakeReply } from './fake-upstream';
export { FakeImagesUpstream } from './fake-images-upstream';
export { FakeReplicate, type PredictionScript } from './fake-replicate';
export { ScriptedServer, type ScriptedReply, type SeenRequest } from './scripted-server';
export * from './media-samples';
