// One process of redis-rate-limit.e2e-spec.ts, forked twice: it takes tokens from the shared Redis bucket
// through the built RedisRateLimitStore (run `node scripts/build.mjs` first) when its parent says so.
//   parent -> {type: 'arm', key, policy, calls}  connect, load the script, reply {type: 'armed'}
//   parent -> {type: 'go', at?}                  at once (or at the instant `at`, ms since the epoch) start all
//                                                `calls` takes together, reply {type: 'result', decisions,
//                                                startedAt, finishedAt}
//   parent -> {type: 'exit'}                     disconnect and end
const { join } = require('node:path');
const Redis = require('ioredis');
const { RedisRateLimitStore } = require(
  join(__dirname, '..', '..', 'dist', 'libs', 'edge', 'src', 'index.js'),
);

const redis = new Redis(process.env.REDIS_URL);
const prefix = process.env.RATE_LIMIT_PREFIX;
const store = new RedisRateLimitStore(redis, prefix);
let armed;

/** Milliseconds since the epoch, to a fraction of one: comparable between the processes of one machine. */
const now = () => performance.timeOrigin + performance.now();

/** Waits on a timer until `at`, if given. (Spinning would be sharper, but on two cores a spinning process is
 *  descheduled for milliseconds while the other races alone.) */
async function waitUntil(at) {
  if (at !== undefined && at > now()) await new Promise((r) => setTimeout(r, at - now()));
}

async function handle(message) {
  switch (message.type) {
    case 'arm':
      // A first take on a key of its own loads the Lua script, so the race below is all EVALSHA.
      await store.take('warm-up', { burst: 1, refillPerMinute: 1 }, Date.now());
      armed = message;
      return { type: 'armed' };
    case 'go': {
      const { key, policy, calls } = armed;
      await waitUntil(message.at);
      const startedAt = now();
      const pending = [];
      for (let i = 0; i < calls; i += 1) pending.push(store.take(key, policy, Date.now()));
      const decisions = await Promise.all(pending);
      return { type: 'result', decisions, startedAt, finishedAt: now() };
    }
    case 'exit':
      redis.disconnect();
      process.disconnect();
      return undefined;
    default:
      throw new Error(`unknown message ${JSON.stringify(message)}`);
  }
}

process.on('message', (message) => {
  handle(message).then(
    (reply) => reply && process.send(reply),
    (error) => process.send({ type: 'error', message: String(error && error.stack) }),
  );
});
process.send({ type: 'up' });
