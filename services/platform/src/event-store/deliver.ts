/**
 * Hands one commit to a subscriber, retrying with capped exponential backoff until it succeeds
 * or the subscription stops: a commit is never skipped because its handler failed once.
 */
export async function deliverWithRetry(
  apply: () => Promise<void>,
  isStopped: () => boolean,
  onError?: (error: unknown) => void,
): Promise<boolean> {
  for (let attempt = 0; !isStopped(); attempt++) {
    try {
      await apply();
      return true;
    } catch (error) {
      onError?.(error);
      await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 50 * 2 ** attempt)));
    }
  }
  return false;
}
