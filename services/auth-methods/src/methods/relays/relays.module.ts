import { createRelay, deleteRelay, getRelay, listRelays, requestRelay, updateRelay } from '@sesame/contracts';
import { AggregateView } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { relaysView } from './projections/relays.projection';
import { relayCodeAggregate, relayAggregate } from './relay.aggregates';
import type { RelaysView } from './projections/relays.projection';
import { relayGrant } from './relay-grant.handlers';
import { requestRelayHandler } from './relay-request.handlers';
import { createRelayHandler, deleteRelayHandler, getRelayHandler, listRelaysHandler, updateRelayHandler } from './relay.handlers';
import type { RelayDeps, RelayServices } from './relays.deps';

/** Relays (SPEC.md sections 3, 7, 8): CRUD, the relay request and `grant_type=relay`. */
export function registerRelays(runtime: ServiceRuntime, services: RelayServices): { view: RelaysView } {
  const view = runtime.projections.register(new AggregateView(relaysView, runtime.readModels, runtime.eventStore));
  const deps: RelayDeps = {
    ...services,
    runtime,
    relays: runtime.aggregate(relayAggregate),
    codes: runtime.aggregate(relayCodeAggregate),
    view,
    now: () => new Date(),
  };
  runtime.router.operation(createRelay, createRelayHandler(deps));
  runtime.router.operation(listRelays, listRelaysHandler(deps));
  runtime.router.operation(getRelay, getRelayHandler(deps));
  runtime.router.operation(updateRelay, updateRelayHandler(deps));
  runtime.router.operation(deleteRelay, deleteRelayHandler(deps));
  runtime.router.operation(requestRelay, requestRelayHandler(deps));
  services.tokenEndpoint.register('relay', relayGrant(deps));
  return { view };
}
