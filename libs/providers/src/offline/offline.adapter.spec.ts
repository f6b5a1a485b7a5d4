import { DEFAULT_ADAPTERS } from '../registry/default-adapters';
import { ProviderRegistry } from '../registry/provider-registry';
import { MemoryCircuitState } from '../resilience/circuit-state';
import { ProviderRouter } from '../resilience/provider-router';
import { probeMedia } from '../media/probe-media';

const binding = {
  adapter: 'offline',
  upstreamModel: 'sketch',
  credentials: [],
  settings: { maxConcurrency: 1 },
};

function router(): ProviderRouter {
  return new ProviderRouter({
    routes: { routeFor: (model) => ({ model, modality: 'image', bindings: [binding] }) },
    registry: new ProviderRegistry(DEFAULT_ADAPTERS, { credential: () => undefined }),
    circuits: new MemoryCircuitState(),
  });
}

const task = (input: Record<string, unknown>) => ({
  taskId: 'job_offline',
  model: 'local/sketch',
  input: { prompt: 'a fox', width: 64, height: 96, num_images: 2, ...input },
  deadlineAt: new Date(Date.now() + 60_000).toISOString(),
});

describe('the offline models behind the provider port', () => {
  it('renders files whose bytes measure what the model promised', async () => {
    const result = await router().generate(task({}), new AbortController().signal);
    if (result.status !== 'succeeded') throw new Error(`failed: ${JSON.stringify(result)}`);
    expect(result.assets).toBe('ready');
    expect(result.files.map((f) => probeMedia(f.bytes))).toEqual([
      { mime: 'image/png', width: 64, height: 96 },
      { mime: 'image/png', width: 64, height: 96 },
    ]);
  });

  it('passes simulated outcomes through as results, not upstream errors', async () => {
    const port = router();
    const signal = new AbortController().signal;
    expect(await port.generate(task({ simulate: 'content_rejected' }), signal)).toEqual({
      status: 'failed',
      errorCode: 'content_rejected',
    });
    expect((await port.generate(task({ simulate: 'asset_pending' }), signal)).status).toBe('succeeded');
    expect(port.breakers.isOpen(binding)).toBe(false);
  });

  it('runs in process: no concurrency slot is taken, whatever maxConcurrency says', async () => {
    const port = router();
    const signal = new AbortController().signal;
    const running = [1, 2, 3].map(() => port.generate(task({ delay_ms: 300 }), signal));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(port.limits.usage('offline')).toEqual({ active: 0, waiting: 0 });
    const results = await Promise.all(running);
    expect(results.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });

  it('cuts a delay short when the signal aborts, rejecting with its reason', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const running = router().generate(task({ delay_ms: 30_000 }), controller.signal);
    setTimeout(() => controller.abort(new Error('runner stopping')), 50);
    await expect(running).rejects.toThrow('runner stopping');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
