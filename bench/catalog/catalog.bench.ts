/**
 * bench/catalog: microseconds per model-input validation and normalization (strict schema check, defaults
 * applied, keys sorted), and with the request fingerprint (sha256 of the sorted JSON), over the shipped
 * catalog, for a typical media input and a typical chat request. Target: at most 20 µs per input.
 *
 *   node scripts/build.mjs --quiet && node dist/bench/catalog/catalog.bench.js [--iterations 200000 --rounds 5]
 *
 * The HTTP half of the benchmark (GET /api/v1/models?includeSchema=1 requests/s) comes with the
 * endpoints.
 */
import {
  catalogFilePath,
  CatalogService,
  loadCatalogFile,
  validateModelInput,
  type LoadedModel,
} from '@gen/catalog';
import { numberFlag } from '../bench-support';

const TARGET_US = 20;

const CASES: ReadonlyArray<{ name: string; model: string; input: Record<string, unknown> }> = [
  {
    name: 'media (local/sketch)',
    model: 'local/sketch',
    input: { prompt: 'a lighthouse at dusk, pencil sketch, soft light', width: 768, height: 512, seed: 42 },
  },
  {
    name: 'chat (local/echo/chat)',
    model: 'local/echo/chat',
    input: {
      messages: [
        { role: 'system', content: 'You are a concise assistant.' },
        { role: 'user', content: 'What is the capital of France?' },
        { role: 'assistant', content: 'Paris.' },
        { role: 'user', content: [{ type: 'text', text: 'And of Italy? Answer in one word.' }] },
      ],
      temperature: 0.7,
      max_tokens: 256,
      stop: ['\n\n'],
    },
  },
];

/** Median of `rounds` runs of `iterations` calls, in µs per call. */
function measure(run: () => unknown, iterations: number, rounds: number): number {
  for (let i = 0; i < Math.min(iterations, 20000); i++) run(); // warm-up: JIT and ajv's code paths
  const perCall: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) run();
    perCall.push(Number(process.hrtime.bigint() - started) / 1000 / iterations);
  }
  return perCall.sort((a, b) => a - b)[Math.floor(perCall.length / 2)]!;
}

function main(): void {
  const iterations = numberFlag('iterations', 200000);
  const rounds = numberFlag('rounds', 5);
  const loadStarted = process.hrtime.bigint();
  const catalog = loadCatalogFile(catalogFilePath());
  const loadMs = Number(process.hrtime.bigint() - loadStarted) / 1e6;
  const service = new CatalogService(catalog, { credential: () => undefined });
  console.log(`catalog: ${catalog.models.length} models loaded and compiled in ${loadMs.toFixed(1)} ms`);
  console.log(
    `${iterations} iterations x ${rounds} rounds after warm-up, median round, Node ${process.version}`,
  );
  const rows: { case: string; 'validate+normalize µs': string; '+fingerprint µs': string; target: string }[] =
    [];
  let worst = 0;
  for (const c of CASES) {
    const model: LoadedModel = service.resolve(c.model);
    const validate = measure(() => validateModelInput(model, c.input), iterations, rounds);
    const full = measure(() => service.validateInput(c.model, c.input), iterations, rounds);
    worst = Math.max(worst, validate);
    rows.push({
      case: c.name,
      'validate+normalize µs': validate.toFixed(2),
      '+fingerprint µs': full.toFixed(2),
      target: `<= ${TARGET_US}`,
    });
  }
  console.table(rows);
  console.log(worst <= TARGET_US ? 'PASS: within target' : `FAIL: ${worst.toFixed(2)} µs > ${TARGET_US} µs`);
  if (worst > TARGET_US) process.exitCode = 1;
}

main();
