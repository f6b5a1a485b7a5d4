import { isSupportedLanguage, taskErrorMessage, type Language } from '@gen/core';
import type { ObjectStorage } from '@gen/storage';

/** The language of an account's deliveries: its setting when supported, else English (spec, Errors). */
export function deliveryLanguage(setting: string | null | undefined): Language {
  return setting && isSupportedLanguage(setting) ? setting : 'en';
}

/**
 * A terminal event's task record made ready to send: every stored asset gets a `url` signed for
 * `urlSeconds` (and its `expiresAt`), and a failed task its `errorMessage` in `language`. Pending and
 * unavailable assets stay without a URL.
 */
export async function deliveryRecord(
  record: Readonly<Record<string, unknown>>,
  options: { storage: ObjectStorage; language: Language; urlSeconds: number },
): Promise<Record<string, unknown>> {
  const output = record['output'] as { assets?: Record<string, unknown>[] } | undefined;
  const assets = output?.assets
    ? await Promise.all(
        output.assets.map(async (asset) => {
          if (asset['pending'] || asset['unavailable']) return asset;
          const signed = await options.storage.presignGet({
            key: asset['key'] as string,
            expiresInSeconds: options.urlSeconds,
          });
          return { ...asset, url: signed.url, expiresAt: signed.expiresAt.toISOString() };
        }),
      )
    : undefined;
  const errorCode = record['errorCode'] as string | undefined;
  return {
    ...record,
    ...(assets ? { output: { ...output, assets } } : {}),
    ...(errorCode ? { errorMessage: taskErrorMessage(options.language, errorCode) } : {}),
  };
}
