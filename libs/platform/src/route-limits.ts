import type { AppConfig } from '@gen/core';
import type { EdgeRouteLimits } from '@gen/edge';

/** The per-address and per-session buckets of the admin and console routes, from the configuration. */
export function routeLimitsOf(config: AppConfig): EdgeRouteLimits {
  return {
    adminPerAddress: {
      burst: config.ADMIN_RATE_BURST,
      refillPerMinute: config.ADMIN_RATE_PER_MINUTE,
    },
    adminFailuresPerAddress: {
      burst: config.ADMIN_AUTH_FAIL_BURST,
      refillPerMinute: config.ADMIN_AUTH_FAIL_PER_MINUTE,
    },
    consolePerAddress: {
      burst: config.CONSOLE_RATE_BURST,
      refillPerMinute: config.CONSOLE_RATE_PER_MINUTE,
    },
    consoleWritesPerSession: {
      burst: config.CONSOLE_WRITE_BURST,
      refillPerMinute: config.CONSOLE_WRITE_PER_MINUTE,
    },
  };
}
