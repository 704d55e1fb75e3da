/**
 * The testcontainers suites (EventStoreDB, MongoDB) run where a container runtime answers and
 * skip with a clear message elsewhere. Detection (testcontainers' getContainerRuntimeClient)
 * is asynchronous, so the int tier's global setup does it once and leaves the verdict in
 * SESAME_CONTAINER_RUNTIME for the suites to read when they are declared.
 */
export function containerRuntimeVerdict(): { available: true } | { available: false; reason: string } {
  const verdict = process.env.SESAME_CONTAINER_RUNTIME ?? 'unavailable: detection did not run';
  return verdict === 'available' ? { available: true } : { available: false, reason: verdict.replace(/^unavailable: /, '') };
}

/** `describe` when a container runtime exists; otherwise a skipped block that says why. */
export function describeWithContainers(name: string, body: () => void): void {
  const verdict = containerRuntimeVerdict();
  if (verdict.available) return describe(name, body);
  describe.skip(`${name} [skipped: no container runtime here (${verdict.reason})]`, body);
  console.warn(`SKIPPED ${name}: no container runtime here (${verdict.reason}); runs where Docker exists`);
}
