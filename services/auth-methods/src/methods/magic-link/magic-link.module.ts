import {
  createMagicLinkChallenge,
  createMagicLinkConnection,
  getMagicLinkConnection,
  updateMagicLinkConnection,
} from '@sesame/contracts';
import { AggregateView, shippedMessageTemplates } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { createMagicLinkChallengeHandler } from './magic-link-challenge.handlers';
import {
  createMagicLinkConnectionHandler,
  getMagicLinkConnectionHandler,
  updateMagicLinkConnectionHandler,
} from './magic-link-connection.handlers';
import type { MagicLinkDeps, MagicLinkServices } from './magic-link.deps';
import { magicLinkConnectionsView } from './projections/magic-link-connections.projection';
import type { MagicLinkConnectionsView } from './projections/magic-link-connections.projection';

/** Magic link: the connection of each organization and the challenge that emails a one-time link. */
export function registerMagicLink(runtime: ServiceRuntime, services: MagicLinkServices): { view: MagicLinkConnectionsView } {
  const deps: MagicLinkDeps = {
    ...services,
    runtime,
    view: runtime.projections.register(new AggregateView(magicLinkConnectionsView, runtime.readModels, runtime.eventStore)),
    messages: shippedMessageTemplates(),
    now: () => new Date(),
  };
  runtime.router.operation(getMagicLinkConnection, getMagicLinkConnectionHandler(deps));
  runtime.router.operation(createMagicLinkConnection, createMagicLinkConnectionHandler(deps));
  runtime.router.operation(updateMagicLinkConnection, updateMagicLinkConnectionHandler(deps));
  runtime.router.operation(createMagicLinkChallenge, createMagicLinkChallengeHandler(deps));
  return { view: deps.view };
}
