import type { ChatEvent, ChatRequest, MediaResult, MediaTask } from '@gen/contracts';
import { echoChat } from './echo-chat';
import type { AdapterFactory, UpstreamAdapter } from '../registry/upstream-adapter';
import { abortableSleep } from '../resilience/retry-policy';
import { isOfflineMediaModel } from './offline-usage-bound';
import { OfflineMediaProvider, type OfflineInputs, type Sleep } from './offline-media-provider';

/**
 * The offline `local/*` models behind the provider port, like any upstream (the text model: echo-chat.ts): `delay_ms` waits on the
 * call's signal (a stopping runner gives the task back at once), `simulate` failures come back as a failed
 * result (not an upstream error: nothing to retry, no breaker to trip), and the files are rendered here.
 */
export const offlineAdapter: AdapterFactory = () => new OfflineAdapter();

class OfflineAdapter implements UpstreamAdapter {
  readonly inProcess = true;

  /** `local/echo/chat`: the offline text model (see echo-chat.ts). */
  chat(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatEvent> {
    return echoChat(request, (ms) => abortableSleep(ms, signal));
  }

  async generate(task: MediaTask, signal: AbortSignal): Promise<MediaResult> {
    if (!isOfflineMediaModel(task.model)) return { status: 'failed', errorCode: 'upstream_failed' };
    const sleep: Sleep = (ms) => abortableSleep(ms, signal);
    const generation = await new OfflineMediaProvider(sleep).generate(
      task.model,
      task.input as unknown as OfflineInputs[typeof task.model],
      task.media,
    );
    if (generation.status === 'failed') return { status: 'failed', errorCode: generation.errorCode };
    return {
      status: 'succeeded',
      files: generation.outputs.map((output) => ({ bytes: output.bytes, claimedType: output.contentType })),
      assets: generation.assets,
    };
  }
}
