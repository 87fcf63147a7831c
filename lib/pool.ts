/**
 * The harness's one concurrency limiter: `work` over `items`, at most `width` calls in flight, started in the items'
 * order; none is started once `stop()` says so or a call has failed, and every call started has ended before the
 * first failure is thrown (no call is left running behind its caller). The property search's batches, the partner
 * run's scenarios and the suites' rounds of calls all go through it.
 */

/** the results of the calls started (those of items[0..n), in order); throws the first failure once all ended */
export async function inPool<A, B>(
  items: readonly A[],
  width: number,
  work: (item: A, index: number) => Promise<B>,
  stop: () => boolean = () => false,
): Promise<B[]> {
  const out: B[] = [];
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failure && !stop()) {
      const i = next++;
      try {
        out[i] = await work(items[i]!, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  if (failure) throw failure.error;
  return out.slice(0, next);
}

/** 0, 1, ..., n - 1: the items of `n` calls told apart by their index */
export function indices(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
