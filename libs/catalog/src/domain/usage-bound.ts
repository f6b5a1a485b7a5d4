import type { ExecutionUsage } from '@gen/contracts';
import type { BoundQuantity, UsageBound } from './model';

/**
 * The usage ceiling of one task of an upstream media model, in the whole units billing charges (images, pixels,
 * milliseconds): the catalog's bound with input fields read from the validated input (defaults applied). An
 * input field that is absent counts as the field's maximum, so the hold never falls short.
 */
export function usageOfBound(
  bound: UsageBound,
  input: Readonly<Record<string, unknown>>,
  inputSchema: Readonly<Record<string, unknown>>,
): ExecutionUsage {
  const properties = (inputSchema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const amount = (quantity: BoundQuantity): number => {
    if (typeof quantity === 'number') return quantity;
    const value = input[quantity.input];
    const count = typeof value === 'number' ? value : Number(properties[quantity.input]?.['maximum'] ?? 0);
    return count * (quantity.times ?? 1);
  };
  return {
    ...(bound.images !== undefined ? { images: Math.ceil(amount(bound.images)) } : {}),
    ...(bound.megapixels !== undefined ? { pixels: Math.ceil(amount(bound.megapixels) * 1_000_000) } : {}),
    ...(bound.seconds !== undefined ? { milliseconds: Math.ceil(amount(bound.seconds) * 1000) } : {}),
  };
}
